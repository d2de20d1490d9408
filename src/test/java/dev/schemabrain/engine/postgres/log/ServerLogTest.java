package dev.schemabrain.engine.postgres.log;

import dev.schemabrain.engine.LoggedStatement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Server log files as the server writes them, read into counted statements of one database. */
class ServerLogTest {

    @TempDir
    Path dir;

    private List<LoggedStatement> read(String name, String text, String prefix, String database) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return ServerLog.read(List.of(file.toString()), prefix).statements(database);
    }

    private static LoggedStatement only(List<LoggedStatement> statements, String text) {
        List<LoggedStatement> found = statements.stream().filter(s -> s.text().equals(text)).toList();
        assertEquals(1, found.size(), () -> text + " in " + statements);
        return found.get(0);
    }

    @Test
    void stderrJoinsLinesFollowsEachSessionsPathAndBindsParameters() throws Exception {
        String log = """
                2026-05-01 10:00:00.100 UTC [7] LOG:  checkpoint starting: time
                2026-05-01 10:00:01.000 UTC [11] app@shop LOG:  statement: SET search_path = billing
                2026-05-01 10:00:02.000 UTC [11] app@shop LOG:  statement: SELECT count(*)
                \tFROM invoice
                \tWHERE status = 'paid'
                2026-05-01 10:00:02.500 UTC [12] app@shop LOG:  execute <unnamed>: SELECT id FROM invoice WHERE status = $1 AND note = '$2'
                2026-05-01 10:00:02.500 UTC [12] app@shop DETAIL:  Parameters: $1 = 'it''s', $2 = 'never'
                2026-05-01 10:00:02.600 UTC [12] app@shop LOG:  duration: 0.020 ms  parse <unnamed>: SELECT 1
                2026-05-01 10:00:03.000 UTC [11] app@shop LOG:  duration: 0.120 ms  statement: SELECT count(*)
                \tFROM invoice
                \tWHERE status = 'paid'
                2026-05-01 10:00:04.000 UTC [13] app@other LOG:  statement: SELECT 2
                2026-05-01 10:00:05.000 UTC [11] app@shop ERROR:  relation "x" does not exist at character 15
                2026-05-01 10:00:05.000 UTC [11] app@shop STATEMENT:  SELECT * FROM x
                """;
        Path file = dir.resolve("postgresql.log");
        Files.writeString(file, log);
        ServerLog read = ServerLog.read(List.of(file.toString()), null);
        List<LoggedStatement> shop = read.statements("shop");
        LoggedStatement paid = only(shop, "SELECT count(*)\nFROM invoice\nWHERE status = 'paid'");
        assertEquals(2, paid.calls(), "logged twice, once by log_statement and once by a duration");
        assertEquals(List.of("billing"), paid.sessionPath());
        assertEquals("app", paid.role());
        assertEquals(Instant.parse("2026-05-01T10:00:02Z"), paid.firstSeen());
        assertEquals(Instant.parse("2026-05-01T10:00:03Z"), paid.lastSeen());
        LoggedStatement bound = only(shop, "SELECT id FROM invoice WHERE status = 'it''s' AND note = '$2'");
        assertNull(bound.sessionPath(), "another session set no path");
        assertEquals(3, shop.size(), "SET, the count and the execute: " + shop);
        assertEquals(1, read.elsewhere("shop"));
        assertEquals(1, read.figures().steps());
    }

    @Test
    void csvlogAndJsonlogCarryTheirOwnSessionsAndDetails() throws Exception {
        String csv = "2026-05-01 10:00:01.000 UTC,\"app\",\"shop\",11,\"[local]\",6630a1.b,1,\"SELECT\",2026-05-01 10:00:00 UTC,"
                + "3/1,0,LOG,00000,\"execute S_1: SELECT id\nFROM invoice WHERE status = $1\",\"Parameters: $1 = 'paid'\",,,,,,,,"
                + "\"psql\",\"client backend\",,0\n";
        assertEquals("SELECT id\nFROM invoice WHERE status = 'paid'", only(read("pg.csv", csv, null, "shop"),
                "SELECT id\nFROM invoice WHERE status = 'paid'").text());
        String json = "{\"timestamp\":\"2026-05-01 10:00:01.000 UTC\",\"user\":\"app\",\"dbname\":\"shop\",\"pid\":11,"
                + "\"session_id\":\"6630a1.b\",\"error_severity\":\"LOG\",\"message\":\"statement: SET search_path TO sales\"}\n"
                + "{\"timestamp\":\"2026-05-01 10:00:02.000 UTC\",\"user\":\"app\",\"dbname\":\"shop\",\"pid\":11,"
                + "\"session_id\":\"6630a1.b\",\"error_severity\":\"LOG\",\"message\":\"statement: SELECT * FROM orders\"}\n";
        assertEquals(List.of("sales"), only(read("pg.json", json, null, "shop"), "SELECT * FROM orders").sessionPath());
    }

    @Test
    void aPgBadgerPrefixAndAGivenOneAreRead() throws Exception {
        String badger = "2026-05-01 10:00:01 UTC [11]: [3-1] user=app,db=shop,app=psql,client=10.0.0.1 LOG:  statement: SELECT 1\n";
        assertEquals("app", only(read("badger.log", badger, null, "shop"), "SELECT 1").role());
        String custom = "1714557601.000 shop/app 11 LOG:  statement: SELECT 3\n";
        assertEquals("app", only(read("custom.log", custom, "%n %d/%u %p ", "shop"), "SELECT 3").role());
    }

    @Test
    void aGlobReadsEveryRotatedFileInOrder() throws Exception {
        String line = "2026-05-0%d 10:00:00.000 UTC [11] app@shop LOG:  statement: SELECT * FROM orders\n";
        Files.writeString(dir.resolve("postgresql-1.log"), line.formatted(1));
        Files.writeString(dir.resolve("postgresql-2.log"), line.formatted(2) + line.formatted(3));
        Files.writeString(dir.resolve("other.txt"), "not a log");
        ServerLog read = ServerLog.read(List.of(dir.resolve("postgresql-*.log").toString()), null);
        LoggedStatement orders = only(read.statements("shop"), "SELECT * FROM orders");
        assertEquals(3, orders.calls());
        assertEquals(Instant.parse("2026-05-01T10:00:00Z"), orders.firstSeen());
        assertEquals(Instant.parse("2026-05-03T10:00:00Z"), orders.lastSeen());
        assertEquals(2, read.figures().files());
    }

    @Test
    void parametersAreWrittenOnlyOutsideStringsCommentsAndDollarQuotes() {
        assertEquals("SELECT 'a', '$1', \"$1\", $$ $1 $$, x$1 /* $1 */ FROM t WHERE a = 'a' AND b = NULL AND c = $3",
                Executions.withParameters("SELECT $1, '$1', \"$1\", $$ $1 $$, x$1 /* $1 */ FROM t WHERE a = $1 AND b = $2 AND c = $3",
                        "parameters: $1 = 'a', $2 = NULL"));
    }
}
