package dev.schemabrain.mining;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mine-queries refuses what it cannot do in one sentence, exit 2, before touching the store. */
class MineQueriesCommandTest {

    @TempDir
    Path dir;

    private InProcessCli.Result run(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "--store";
        all[1] = dir.resolve("store.db").toString();
        all[2] = "mine-queries";
        System.arraycopy(args, 0, all, 3, args.length);
        return InProcessCli.run(all);
    }

    private static void oneSentence(InProcessCli.Result r, String expected) {
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertTrue(r.stderr().contains(expected), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), "one line: " + r.stderr());
        assertFalse(r.stderr().contains("Exception"), r.stderr());
    }

    @Test
    void needsASource() {
        oneSentence(run(), "pass --source URL or --url-env VAR");
    }

    @Test
    void readsOnlyEnginesWithAQueryLog() throws Exception {
        Path db = dir.resolve("app.db");
        Files.createFile(db);
        oneSentence(run("--source", "sqlite:" + db), "PostgreSQL and MySQL/MariaDB sources only");
    }

    @Test
    void needsTheSourceIndexedFirst() throws Exception {
        TestPostgres.createDatabase("sb_mining_unindexed", "CREATE TABLE t (id int PRIMARY KEY)");
        assertEquals(0, InProcessCli.run("--store", dir.resolve("store.db").toString(), "index", "--source",
                TestPostgres.url("postgres")).exitCode());
        oneSentence(run("--source", TestPostgres.url("sb_mining_unindexed")), "run 'schemabrain index' on that source first");
    }

    @Test
    void aServerLogItCannotReadIsRefusedBeforeTheStoreOpens() throws Exception {
        String url = "postgresql://postgres@localhost:1/app";   // never reached: the files are checked first
        Path foreign = dir.resolve("app.log");
        Files.writeString(foreign, "this is not a server log\nnor is this\n");
        Path noUser = dir.resolve("default-prefix.log");
        Files.writeString(noUser, "2026-05-01 10:00:00.123 UTC [42] LOG:  statement: SELECT 1\n");
        oneSentence(run("--source", url, "--log-file", dir.resolve("missing.csv").toString()), "does not exist");
        oneSentence(run("--source", url, "--log-file", dir.resolve("none-*.csv").toString()), "No file matches");
        oneSentence(run("--source", url, "--log-file", foreign.toString()), "is not a PostgreSQL log mine-queries can read");
        oneSentence(run("--source", url, "--log-file", noUser.toString()), "names no user and database");
        oneSentence(run("--source", url, "--log-file", dir.toString()), "is a directory");
        oneSentence(run("--source", url, "--log-file", foreign.toString(), "--log-line-prefix", "%m [%p] "),
                "names no user and database");
        oneSentence(run("--source", "mysql://root@localhost/app", "--log-file", foreign.toString()), "reads a PostgreSQL server log");
        assertFalse(Files.exists(dir.resolve("store.db")), "no store was opened");
    }
}
