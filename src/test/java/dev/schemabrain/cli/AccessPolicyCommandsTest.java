package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.IndexedSqlite;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code policy explain} and {@code doctor --access-policy} on a real indexed store, as an operator reviews a policy. */
class AccessPolicyCommandsTest {

    @TempDir
    Path dir;
    private Path store;
    private Path policy;
    private Map<String, String> env;

    @BeforeEach
    void index() throws Exception {
        env = Map.of("HOME", dir.toString(), "XDG_CONFIG_HOME", dir.resolve(".config").toString());
        store = IndexedSqlite.index(dir, "shop", env,
                "CREATE TABLE customer (id integer PRIMARY KEY, name text, support_rep_id integer)",
                "CREATE TABLE orders (id integer PRIMARY KEY, customer_id integer REFERENCES customer(id), total numeric)");
        policy = write("policy.yaml", """
                version: 1
                roles:
                  analyst:
                    allow: [main.orders]
                    min_group_size: 10
                    metric_rate: 60/min
                  support:
                    allow: [main.*]
                    pii_clearance: [contact]
                    row_filters:
                      - {entity: customer, column: customer.support_rep_id, op: eq, claim: employee_id}
                  typo:
                    allow: [mian.*]
                default_role: none
                """);
    }

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private String explain(String... more) {
        String[] args = new String[5 + more.length];
        System.arraycopy(new String[]{"--store", store.toString(), "policy", "explain", "--access-policy=" + policy}, 0, args, 0, 5);
        System.arraycopy(more, 0, args, 5, more.length);
        InProcessCli.Result r = InProcessCli.run(env, args);
        assertEquals(0, r.exitCode(), r.stderr());
        return r.stdout();
    }

    @Test
    void explainShowsTheTablesFiltersAndLimitsOfARole() {
        String analyst = explain("--role", "analyst");
        assertTrue(analyst.contains("tables (1 of 2): [main.orders]"), analyst);
        assertTrue(analyst.contains("min_group_size: 10"), analyst);
        assertTrue(analyst.contains("metric_rate: 60/min"), analyst);
        assertTrue(analyst.contains("row filters: none"), analyst);

        String support = explain("--role", "support", "--claim", "employee_id=3");
        assertTrue(support.contains("tables (2 of 2): [main.customer, main.orders]"), support);
        assertTrue(support.contains("row filter: customer where customer.support_rep_id = 3 (claim employee_id)"), support);
        assertTrue(support.contains("pii_clearance: [contact]"), support);

        String unbound = explain("--role", "support");
        assertTrue(unbound.contains("needs the claim employee_id, which this caller lacks"), unbound);

        String nobody = explain();
        assertTrue(nobody.contains("reaches nothing: the credential carries no role and the access policy's default_role is none"),
                nobody);
        String ghost = explain("--role", "admin");
        assertTrue(ghost.contains("reaches nothing: the credential's role admin is not in the access policy"), ghost);
    }

    @Test
    void doctorChecksThePolicyFile() throws Exception {
        InProcessCli.Result r = InProcessCli.run(env, "--store", store.toString(), "doctor", "--access-policy", policy.toString());
        assertTrue(r.stdout().contains("warn  access policy: " + policy + ", 3 roles (analyst, support, typo), default_role none;"
                + " role typo allow no indexed table"), r.stdout());

        Path bad = write("bad.yaml", "version: 1\nroles:\n  a:\n    allow: [main.orders]\n    colour: red\n");
        InProcessCli.Result refused = InProcessCli.run(env, "--store", store.toString(), "doctor", "--access-policy",
                bad.toString());
        assertEquals(2, refused.exitCode());
        assertTrue(refused.stdout().contains("FAIL  access policy: The access policy " + bad + " line 5 has an unknown key 'colour'"),
                refused.stdout());

        Files.setPosixFilePermissions(policy, PosixFilePermissions.fromString("rw-r--r--"));
        InProcessCli.Result open = InProcessCli.run(env, "--store", store.toString(), "doctor", "--access-policy", policy.toString());
        assertTrue(open.stdout().contains("FAIL  access policy: ") && open.stdout().contains("chmod 600"), open.stdout());
    }
}
