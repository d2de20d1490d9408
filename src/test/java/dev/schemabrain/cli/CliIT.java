package dev.schemabrain.cli;

import dev.schemabrain.testing.Cli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The packaged CLI end to end: the demo, the summary, and one clear sentence for every bad input. */
class CliIT {

    @TempDir
    static Path dir;
    static byte[] storeBefore;
    static final String DEMO_STORE = "schemabrain.demo.db";

    @BeforeAll
    static void runTheDemo() throws Exception {
        Cli.Result demo = Cli.run(dir, "demo");
        assertEquals(0, demo.exitCode(), demo.stderr());
        // The demo keeps a store of its own: indexing your database next to it must not mix the two (issue 31).
        assertTrue(Files.exists(dir.resolve(DEMO_STORE)));
        assertFalse(Files.exists(dir.resolve("schemabrain.db")), "the default store is left to your own database");
        assertTrue(Files.exists(dir.resolve("schemabrain-demo.sqlite")));
        assertTrue(demo.stdout().contains("Next: index your own database with 'schemabrain index --url-env DATABASE_URL'"
                + " (into schemabrain.db; the demo keeps to schemabrain.demo.db)"), demo.stdout());
        storeBefore = Files.readAllBytes(dir.resolve(DEMO_STORE));
    }

    static void assertOneClearSentence(Cli.Result r) throws Exception {
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        String err = r.stderr().strip();
        // Progress lines may come first; the failure is the last line, a single sentence.
        String last = err.lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("schemabrain: ") && last.endsWith("."), err);
        assertEquals(1, err.lines().filter(l -> l.startsWith("schemabrain: ")).count(), err);
        assertTrue(err.lines().allMatch(l -> l.startsWith("schemabrain: ") || l.endsWith(" ...")),
                "nothing but progress and the sentence: " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat "), err);
        assertArrayEquals(storeBefore, Files.readAllBytes(dir.resolve(DEMO_STORE)), "the store is unchanged");
    }

    @Test
    void theDemoShowsWhatAnAgentSeesAndReindexesForFree() throws Exception {
        Cli.Result again = Cli.run(dir, "demo");
        assertEquals(0, again.exitCode(), again.stderr());
        assertTrue(again.stdout().contains("list_indexed_schemas"), again.stdout());
        assertTrue(again.stdout().contains("main: 12 tables, 84 columns"), again.stdout());
        assertTrue(again.stdout().contains("payments.card_number, users.password_hash"), again.stdout());
        for (String step : new String[]{"find_relevant_tables", "describe_table", "suggest_joins", "get_metric", "pii_blocked",
                "recovery: group_by", "audit verify", "chain intact"}) {
            assertTrue(again.stdout().contains(step), step + " in " + again.stdout());
        }
        assertFalse(again.stdout().matches("(?s).*[a-z]@[a-z].*"), "no e-mail address is ever printed");
        assertTrue(again.stdout().contains("(0 documents embedded)"), "a re-run embeds nothing: " + again.stdout());
        assertFalse(again.stdout().contains("Reading the catalog"), "progress goes to stderr, not stdout");
        assertTrue(again.stderr().contains("Reading the catalog"), again.stderr());
        storeBefore = Files.readAllBytes(dir.resolve(DEMO_STORE));
    }

    @Test
    void theDemosNextStepIndexesYourDatabaseAlone() throws Exception {
        Path yours = dir.resolve("yours");
        Files.createDirectories(yours);
        Files.copy(dir.resolve(DEMO_STORE), yours.resolve(DEMO_STORE));
        Files.writeString(yours.resolve("app.sql"), "CREATE TABLE orders (id INTEGER PRIMARY KEY, total NUMERIC);");
        Cli.Result index = Cli.run(yours, Map.of("DATABASE_URL", "ddl:" + yours.resolve("app.sql")), "index", "--url-env", "DATABASE_URL");
        assertEquals(0, index.exitCode(), index.stderr());
        assertTrue(index.stdout().contains("tables        1:"), "only your table is in schemabrain.db: " + index.stdout());
    }

    @Test
    void versionAndHelpOnEveryCommand() throws Exception {
        Cli.Result version = Cli.run(dir, "--version");
        assertEquals(0, version.exitCode());
        // Built from this checkout, the revision is git's; only a source archive without .git says unknown.
        String revision = Files.exists(Path.of(".git")) ? "(?!unknown)[\\w.-]+" : "unknown";
        assertTrue(version.stdout().matches("schemabrain \\d+\\.\\d+\\.\\d+ \\(git " + revision + "\\)\\s*"), version.stdout());
        for (String command : new String[]{"index", "serve", "lint", "demo", "apply", "diff", "export", "entities", "joins",
                "metrics", "import", "init", "doctor", "check", "test"}) {
            Cli.Result help = Cli.run(dir, command, "--help");
            assertEquals(0, help.exitCode(), command);
            assertTrue(help.stdout().contains("--store"), command + " help lists the global options");
        }
        Cli.Result top = Cli.run(dir, "--help");
        assertTrue(top.stdout().contains("index") && top.stdout().contains("serve") && top.stdout().contains("lint"), top.stdout());
    }

    @Test
    void unreachableHost() throws Exception {
        Cli.Result r = Cli.run(dir, "index", "--source", "postgresql://postgres@127.0.0.1:1/app");
        assertOneClearSentence(r);
        assertTrue(r.stderr().contains("Cannot reach the PostgreSQL server at 127.0.0.1:1"), r.stderr());
    }

    @Test
    void wrongPasswordIsNeverEchoed() throws Exception {
        String role = TestPostgres.passwordRole();
        Cli.Result r = Cli.run(dir, Map.of("DB_URL", "postgresql://" + role + ":hunter2-wrong@127.0.0.1:"
                + TestPostgres.port() + "/postgres"), "index", "--url-env", "DB_URL");
        assertOneClearSentence(r);
        assertTrue(r.stderr().contains("refused the login"), r.stderr());
        assertFalse(r.stderr().contains("hunter2"));
    }

    @Test
    void aPasswordOnTheCommandLineIsWarnedAbout() throws Exception {
        Cli.Result r = Cli.run(dir, "index", "--dry-run", "--source", "postgresql://postgres:pw-on-cli@127.0.0.1:"
                + TestPostgres.port() + "/postgres");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("warning: the source URL holds a password"), r.stderr());
        assertFalse((r.stdout() + r.stderr()).contains("pw-on-cli"));
    }

    @Test
    void missingDatabase() throws Exception {
        Cli.Result r = Cli.run(dir, "index", "--source", TestPostgres.url("no_such_db"));
        assertOneClearSentence(r);
        assertTrue(r.stderr().contains("'no_such_db' does not exist"), r.stderr());
    }

    @Test
    void missingFiles() throws Exception {
        for (String scheme : new String[]{"sqlite", "ddl", "spider"}) {
            Cli.Result r = Cli.run(dir, "index", "--source", scheme + ":" + dir.resolve("nope." + scheme));
            assertOneClearSentence(r);
            assertTrue(r.stderr().contains("nope." + scheme), r.stderr());
        }
    }

    @Test
    void unparseableDdl() throws Exception {
        Path ddl = dir.resolve("broken.sql");
        Files.writeString(ddl, "CREATE TABLE (((;\n");
        assertOneClearSentence(Cli.run(dir, "index", "--source", "ddl:" + ddl));
    }

    @Test
    void unknownSchemeAndMissingSource() throws Exception {
        Cli.Result r = Cli.run(dir, "index", "--source", "oracle://scott:tiger@db/orcl");
        assertOneClearSentence(r);
        assertTrue(r.stderr().contains("Unknown source URL scheme 'oracle'"), r.stderr());
        assertFalse(r.stderr().contains("tiger"));
        assertOneClearSentence(Cli.run(dir, "index"));
        assertOneClearSentence(Cli.run(dir, "index", "--url-env", "SCHEMABRAIN_TEST_UNSET_VARIABLE"));
        assertOneClearSentence(Cli.run(dir, "index", "--no-such-flag"));
    }

    @Test
    void aStoreThatIsNotAStore() throws Exception {
        Path notes = dir.resolve("notes.txt");
        Files.writeString(notes, "not a store");
        Cli.Result r = Cli.run(dir, "--store", notes.toString(), "index", "--source",
                "sqlite:" + dir.resolve("schemabrain-demo.sqlite"));
        assertOneClearSentence(r);
        assertTrue(r.stderr().contains("is not a SchemaBrain store"), r.stderr());
        assertEquals("not a store", Files.readString(notes));
    }

    @Test
    void verboseShowsTheStackTrace() throws Exception {
        Cli.Result r = Cli.run(dir, "-v", "index", "--source", "sqlite:" + dir.resolve("absent.db"));
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("\tat "), r.stderr());
    }

    @Test
    void theSemanticProjectExportsAppliesAndDiffs() throws Exception {
        String store = dir.resolve("semantic.db").toString();
        Cli.Result index = Cli.run(dir, "index", "--store", store, "--source", "sqlite:" + dir.resolve("schemabrain-demo.sqlite"));
        assertEquals(0, index.exitCode(), index.stderr());
        Cli.Result export = Cli.run(dir, "export", "--store", store, "proj");
        assertEquals(0, export.exitCode(), export.stderr());
        assertTrue(Files.exists(dir.resolve("proj/metrics/invoices_count.yaml")), export.stdout());
        Cli.Result untouched = Cli.run(dir, "diff", "--store", store, "proj");
        assertEquals(0, untouched.exitCode(), "drafts left as exported are no drift: " + untouched.stdout() + untouched.stderr());
        Path file = dir.resolve("proj/metrics/invoices_count.yaml");
        Files.writeString(file, Files.readString(file).replace("validation_state: draft", "validation_state: confirmed"));
        Cli.Result drift = Cli.run(dir, "diff", "--store", store, "proj");
        assertEquals(1, drift.exitCode(), "a confirmed draft is not applied yet: " + drift.stdout() + drift.stderr());
        assertTrue(drift.stdout().contains("+ metric invoices_count"), drift.stdout());
        Cli.Result apply = Cli.run(dir, "apply", "--store", store, "proj");
        assertEquals(0, apply.exitCode(), apply.stderr());
        Cli.Result inSync = Cli.run(dir, "diff", "--store", store, "proj");
        assertEquals(0, inSync.exitCode(), inSync.stdout() + inSync.stderr());
        Cli.Result metrics = Cli.run(dir, "metrics", "list", "--json", "--store", store);
        assertEquals(0, metrics.exitCode(), metrics.stderr());
        assertTrue(metrics.stdout().contains("\"name\":\"invoices_count\"") && metrics.stdout().contains("\"validation_state\":\"confirmed\""),
                metrics.stdout());
        Files.writeString(dir.resolve("proj/metrics/invoices_count.yaml"), "\nbogus: 1\n", StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(dir.resolve("semantic.db"));
        for (String command : new String[]{"diff", "apply"}) {
            Cli.Result bad = Cli.run(dir, command, "--store", store, "proj");
            assertEquals(2, bad.exitCode(), bad.stdout() + bad.stderr());
            assertTrue(bad.stderr().strip().matches("schemabrain: metrics/invoices_count\\.yaml:\\d+: 'bogus' is not a known key.*"), bad.stderr());
            assertFalse(bad.stderr().contains("Exception"), bad.stderr());
        }
        assertArrayEquals(before, Files.readAllBytes(dir.resolve("semantic.db")), "a failed apply writes nothing");
    }

    @Test
    void lintPassesOnEveryServedTool() throws Exception {
        Cli.Result lint = Cli.run(dir, "lint");
        assertEquals(0, lint.exitCode(), lint.stdout() + lint.stderr());
        assertTrue(lint.stdout().contains("ok    describe_table"), lint.stdout());
        assertTrue(lint.stdout().strip().endsWith("16 tools, 0 findings."), lint.stdout());
    }
}
