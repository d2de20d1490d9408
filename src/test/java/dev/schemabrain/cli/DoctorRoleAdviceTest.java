package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * doctor's read-only-role advice, run exactly as printed by an administrator, leaves a role doctor no longer warns
 * about (issue 31): on Pagila, whose dump grants PUBLIC every right on schema public, the GRANTs alone did not.
 */
class DoctorRoleAdviceTest {

    private static final String ROLE = "schemabrain_reader";

    @TempDir
    Path dir;

    private Map<String, String> env() {
        return Map.of("HOME", dir.resolve("home").toString());
    }

    /** The indented lines under doctor's role warning: the statements it tells an administrator to run. */
    private static List<String> advice(String stdout) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : stdout.lines().toList()) {
            if (line.startsWith("warn  role:")) {
                in = true;
            } else if (in && line.startsWith("        ")) {
                out.add(line.substring(8));
            } else if (in) {
                break;
            }
        }
        return out;
    }

    @Test
    void onPagilaTheAdviceAsPrintedClearsTheRoleWarning() throws Exception {
        String db = "doctor_pagila";
        TestPostgres.loadSample(db, "pagila-pg15.sql");
        try (Connection c = TestPostgres.connect(db); Statement st = c.createStatement()) {
            st.execute("DROP ROLE IF EXISTS " + ROLE);
        }
        Path store = dir.resolve("none.db");
        try {
            InProcessCli.Result admin = InProcessCli.run(env(), "doctor", "--source", TestPostgres.url(db), "--store",
                    store.toString());
            List<String> advice = advice(admin.stdout());
            assertTrue(admin.stdout().contains("warn  role: role 'postgres' can write"), admin.stdout());
            assertTrue(advice.contains("REVOKE CREATE ON SCHEMA public FROM PUBLIC;"), admin.stdout());

            Path script = Files.writeString(dir.resolve("advice.sql"), String.join("\n", advice) + "\n");
            TestPostgres.psql(db, script);

            String readerUrl = "postgresql://" + ROLE + "@localhost:" + TestPostgres.port() + "/" + db;
            InProcessCli.Result reader = InProcessCli.run(env(), "doctor", "--source", readerUrl, "--store", store.toString());
            assertTrue(reader.stdout().contains("ok    role: role '" + ROLE + "' cannot write"), reader.stdout());
            assertFalse(reader.stdout().contains("warn  role:"), reader.stdout());
        } finally {
            try (Connection c = TestPostgres.connect("postgres"); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
                st.execute("DROP ROLE IF EXISTS " + ROLE);
            }
        }
    }

    @Test
    void onMariaDbTheAdviceAsPrintedClearsTheRoleWarning() throws Exception {
        String db = TestMariaDb.create("sb_advice", "CREATE TABLE t (id int PRIMARY KEY, v varchar(20))");
        String account = "'" + ROLE + "'@'%'";
        try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
            st.execute("DROP USER IF EXISTS " + account);
        }
        Path store = dir.resolve("none.db");
        try {
            InProcessCli.Result admin = InProcessCli.run(env(), "doctor", "--source", TestMariaDb.url(db), "--store",
                    store.toString());
            List<String> advice = advice(admin.stdout());
            assertTrue(admin.stdout().contains("warn  role: role 'root' can write"), admin.stdout());
            assertFalse(advice.isEmpty(), admin.stdout());
            try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
                for (String line : advice) {
                    if (!line.startsWith("--")) {
                        st.execute(line);
                    }
                }
            }
            String readerUrl = "mariadb://" + ROLE + ":choose-a-password@" + TestMariaDb.SERVER + "/" + db;
            InProcessCli.Result reader = InProcessCli.run(env(), "doctor", "--source", readerUrl, "--store", store.toString());
            assertTrue(reader.stdout().contains("ok    role: role '" + ROLE + "' cannot write"), reader.stdout());
            assertFalse(reader.stdout().contains("warn  role:"), reader.stdout());
        } finally {
            try (Connection c = TestMariaDb.connect(db); Statement st = c.createStatement()) {
                st.execute("DROP USER IF EXISTS " + account);
            }
            TestMariaDb.drop(db);
        }
    }
}
