package dev.schemabrain.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.audit.AuditLog;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.AuditException;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import dev.schemabrain.store.StoreLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's story on a real demo store: every line it prints comes from a tool's answer or the audit verifier. */
class DemoStoryTest {

    @TempDir
    static Path dir;
    static Path store;
    static SourceUrl source;

    @BeforeAll
    static void indexTheDemo() throws Exception {
        Path database = dir.resolve("demo.sqlite");
        DemoDatabase.ensure(database);
        source = SourceUrl.parse("sqlite:" + database);
        store = dir.resolve("store.db");
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().run(source, s, store, false, IndexListener.SILENT);
        }
    }

    @Test
    void theStoryIsToldByTheToolsAndTheVerifiedChain(@TempDir Path auditDir) throws Exception {
        StringWriter printed = new StringWriter();
        DemoStory.Told told = new DemoStory(new PrintWriter(printed, true)).tell(new StoreLocation.SqliteFile(store), source, auditDir);
        String out = printed.toString();
        Envelope search = told.answers().get(1);
        Envelope describe = told.answers().get(2);
        Envelope join = told.answers().get(3);
        Envelope metric = told.answers().get(4);
        Envelope suppressed = told.answers().get(5);
        Envelope refusal = told.answers().get(6);
        JsonNode firstRow = metric.data().path("rows").path(0);
        assertAll(
                () -> assertTrue(out.contains("main: 12 tables, 84 columns"), out),
                () -> assertTrue(Pattern.compile("12 PII columns tagged \\(no sample of any was stored\\); \\d+"
                        + " of the 12 are redacted and never aggregated: ").matcher(out.replaceAll("\\s+", " ")).find(), out),
                () -> assertEquals(Status.SUCCESS, search.status()),
                () -> assertTrue(out.contains(search.data().path("hits").path(0).path("qualified_name").asText()), out),
                () -> assertTrue(out.contains(describe.data().path("description").asText().substring(0, 40)), out),
                () -> assertEquals(3, join.data().path("paths").path(0).path("hops").asInt()),
                () -> assertTrue(out.contains("users -> organizations (organization_id = id)"), out),
                () -> assertTrue(metric.status() == Status.SUCCESS || metric.status() == Status.PARTIAL, metric.toJson()),
                // The money is in minor units: labelled so, with the amount in major units beside it.
                () -> assertTrue(out.contains(firstRow.path("organizations.country").asText() + "   "
                        + firstRow.path("invoices_total_cents_sum").asLong() + " cents ("
                        + String.format(Locale.ROOT, "%,.2f", firstRow.path("invoices_total_cents_sum").asLong() / 100.0)
                        + ")"), out),
                // The top 3 answers the question whole: the story says how many groups there were, not "partial".
                () -> assertTrue(out.contains("the top 3 of " + metric.data().path("total_groups").asInt() + " countries"), out),
                () -> assertFalse(out.contains("partial"), out),
                // Small-group suppression is shown as the refusal is: what was left out and why.
                () -> assertEquals(Status.DEGRADED, suppressed.status(), suppressed.toJson()),
                () -> assertTrue(out.contains("(degraded, small_groups_suppressed)"), out),
                () -> assertTrue(out.replaceAll("\\s+", " ").contains(suppressed.data().path("suppression").path("suppressed_groups").asInt()
                        + " group(s) left out, their keys unlisted: "
                        + suppressed.data().path("suppression").path("widening_hint").asText()), out),
                () -> assertEquals(Status.REFUSED, refusal.status()),
                () -> assertEquals(ErrorKind.PII_BLOCKED, refusal.error().kind()),
                () -> assertTrue(out.replaceAll("\\s+", " ").contains(refusal.error().recovery().suggestedRewrite()), out),
                () -> assertTrue(told.audit().intact(), told.audit().problem()),
                // Eight calls (the PII count is one more search), and a row before each of the two metrics' SQL left.
                () -> assertEquals(10, told.audit().rowsChecked()),
                () -> assertTrue(out.contains("chain intact: 10 keyed, hash-chained rows verified"), out),
                () -> assertFalse(out.matches("(?s).*[a-z0-9]@[a-z].*"), "no e-mail address is printed"),
                () -> assertFalse(out.matches("(?s).*\\d{13,19}.*"), "no card number is printed"),
                () -> assertTrue(out.lines().allMatch(l -> l.length() <= 100), "lines fit the screen: " + out));
    }

    @Test
    void withItsEventsDatabaseTheStoryServesTwoDatabasesAndRefusesAJoinAcrossThem(@TempDir Path twoDir) throws Exception {
        Path database = twoDir.resolve("demo.sqlite");
        DemoDatabase.ensure(database);
        Path events = DemoEvents.beside(database);
        DemoEvents.ensure(events);
        SourceUrl sqlite = SourceUrl.parse("sqlite:" + database);
        SourceUrl duckdb = SourceUrl.parse("duckdb:" + events);
        Path two = twoDir.resolve("store.db");
        for (SourceUrl u : List.of(sqlite, duckdb)) {
            try (SchemaSource s = Sources.open(u)) {
                new Indexer().run(u, s, two, false, IndexListener.SILENT);
            }
        }
        StringWriter printed = new StringWriter();
        DemoStory.Told told = new DemoStory(new PrintWriter(printed, true)).tell(new StoreLocation.SqliteFile(two),
                List.of(sqlite, duckdb), Files.createDirectory(twoDir.resolve("audit")));
        String out = printed.toString();
        Envelope second = told.answers().get(7);
        Envelope across = told.answers().get(8);
        long byHand;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + events);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM feature_events WHERE platform = 'ios'")) {
            rs.next();
            byHand = rs.getLong(1);
        }
        long answered = -1;
        for (JsonNode row : second.data().path("rows")) {
            if (row.path("feature_events.platform").asText().equals("ios")) {
                answered = row.path("feature_events_count").asLong();
            }
        }
        long ios = answered;
        assertAll(
                () -> assertEquals(Status.SUCCESS, second.status(), second.toJson()),
                () -> assertEquals(byHand, ios, "the DuckDB metric equals hand-written SQL on the DuckDB file"),
                () -> assertTrue(out.contains("ios " + byHand), out),
                () -> assertEquals(ErrorKind.INVALID_ARGUMENT, across.error().kind(), across.toJson()),
                () -> assertTrue(out.replaceAll("\\s+", " ").contains("names tables of 2 databases"), out),
                () -> assertTrue(told.audit().intact(), told.audit().problem()),
                () -> assertTrue(out.lines().allMatch(l -> l.length() <= 100), "lines fit the screen: " + out));
    }

    @Test
    void aPlantedChainFileIsRefusedNotWrittenThrough(@TempDir Path auditDir) throws Exception {
        Path elsewhere = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Files.createSymbolicLink(AuditLog.fileFor(auditDir.resolve("demo-story.db")), elsewhere);
        AuditException e = assertThrows(AuditException.class, () -> new DemoStory(new PrintWriter(new StringWriter()))
                .tell(new StoreLocation.SqliteFile(store), source, auditDir));
        assertAll(() -> assertEquals("keep me", Files.readString(elsewhere)),
                () -> assertTrue(e.getMessage().endsWith(".") && !e.getMessage().contains("\n"), e.getMessage()));
    }
}
