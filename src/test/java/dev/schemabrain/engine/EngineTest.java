package dev.schemabrain.engine;

import dev.schemabrain.testing.TestMariaDb;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Each engine's session, quoting and error classification, on real PostgreSQL, MariaDB and SQLite. */
class EngineTest {

    /** A table and column whose names hold every engine's quote characters. */
    private static final String TABLE = "we\"ird`t";
    private static final String COLUMN = "a\"b`c";

    @TempDir
    static Path dir;
    static String maria;
    static Path sqlite;
    static Path notADatabase;

    @BeforeAll
    static void databases() throws Exception {
        TestPostgres.createDatabase("sb_engine", "CREATE TABLE \"we\"\"ird`t\" (\"a\"\"b`c\" int)",
                "INSERT INTO \"we\"\"ird`t\" VALUES (7)");
        maria = TestMariaDb.create("sb_engine", "CREATE TABLE `we\"ird``t` (`a\"b``c` int)", "INSERT INTO `we\"ird``t` VALUES (7)");
        sqlite = dir.resolve("engine.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + sqlite); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE \"we\"\"ird`t\" (\"a\"\"b`c\" int)");
            st.execute("INSERT INTO \"we\"\"ird`t\" VALUES (7)");
        }
        notADatabase = Files.writeString(dir.resolve("notes.txt"), "not a database, just some text that is long enough ".repeat(20));
    }

    @AfterAll
    static void dropMaria() throws Exception {
        TestMariaDb.drop(maria);
    }

    private static Engine engine(SourceUrl url) {
        return Engines.of(url.kind()).orElseThrow();
    }

    /** Each engine with the schema its table lives in. */
    static Stream<Arguments> sources() {
        return Stream.of(Arguments.of(TestPostgres.url("sb_engine"), "public"), Arguments.of(TestMariaDb.url(maria), maria),
                Arguments.of("sqlite:" + sqlite, "main"));
    }

    static Stream<Arguments> sessions() {
        return sources().flatMap(source -> Stream.of(Purpose.introspection(), Purpose.query(5_000))
                .map(purpose -> Arguments.of(source.get()[0], purpose)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void theEnginesQuotingReadsANameHoldingEveryQuoteCharacter(String address, String schema) throws Exception {
        SourceUrl url = SourceUrl.parse(address);
        Engine engine = engine(url);
        try (Connection c = engine.connect(url, Purpose.introspection()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT " + engine.quote(COLUMN) + " FROM " + engine.quote(schema) + "." + engine.quote(TABLE))) {
            assertTrue(rs.next());
            assertEquals(7, rs.getInt(1));
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sessions")
    void everySessionRefusesAWrite(String address, Purpose purpose) throws Exception {
        SourceUrl url = SourceUrl.parse(address);
        try (Connection c = engine(url).connect(url, purpose); Statement st = c.createStatement()) {
            assertThrows(SQLException.class, () -> st.execute("CREATE TABLE evil (id int)"));
        }
    }

    static Stream<Arguments> purposes() {
        return Stream.of(Arguments.of(Purpose.introspection(), "schemabrain", "0"),
                Arguments.of(Purpose.query(1234), "schemabrain", "1234ms"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("purposes")
    void aPostgresSessionIsNamedReadOnlyAndLimitedByItsPurpose(Purpose purpose, String name, String timeout) throws Exception {
        SourceUrl url = SourceUrl.parse(TestPostgres.url("sb_engine"));
        try (Connection c = Engines.POSTGRESQL.connect(url, purpose); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_setting('application_name'), current_setting('default_transaction_read_only'), "
                     + "current_setting('statement_timeout')")) {
            rs.next();
            assertEquals(List.of(name, "on", timeout), List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
        }
    }

    static Stream<Arguments> failures() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String role = TestPostgres.passwordRole();
        String pg = "127.0.0.1:" + TestPostgres.port();
        return Stream.of(
                Arguments.of("postgresql://" + role + ":wrong-secret@" + pg + "/sb_engine", "SELECT 1", Failure.AUTH_FAILED),
                Arguments.of("postgresql://postgres@" + pg + "/no_such_database", "SELECT 1", Failure.UNKNOWN_DATABASE),
                Arguments.of("postgresql://postgres@127.0.0.1:" + closedPort + "/x", "SELECT 1", Failure.UNREACHABLE),
                Arguments.of("postgresql://postgres@no-such-host.invalid/x", "SELECT 1", Failure.UNKNOWN_HOST),
                Arguments.of("postgresql://" + role + ":right-password@" + pg + "/sb_engine",
                        "SELECT * FROM \"we\"\"ird`t\"", Failure.PERMISSION),
                Arguments.of("postgresql://postgres@" + pg + "/sb_engine", "SELECT pg_sleep(5)", Failure.TIMEOUT),
                Arguments.of("mariadb://root:wrong-secret@" + TestMariaDb.SERVER + "/" + maria, "SELECT 1", Failure.AUTH_FAILED),
                Arguments.of("mariadb://root@" + TestMariaDb.SERVER + "/no_such_database", "SELECT 1", Failure.UNKNOWN_DATABASE),
                Arguments.of("mariadb://root@127.0.0.1:" + closedPort + "/x", "SELECT 1", Failure.UNREACHABLE),
                Arguments.of("mariadb://root@no-such-host.invalid/x", "SELECT 1", Failure.UNKNOWN_HOST),
                Arguments.of("mariadb://root@" + TestMariaDb.SERVER + "/" + maria,
                        "SELECT COUNT(*) FROM seq_1_to_100000 a, seq_1_to_100000 b", Failure.TIMEOUT),
                Arguments.of("sqlite:" + dir.resolve("missing.sqlite"), "SELECT 1", Failure.UNREACHABLE),
                Arguments.of("sqlite:" + notADatabase, "SELECT * FROM sqlite_master", Failure.NOT_A_DATABASE),
                Arguments.of("sqlite:" + sqlite, "SELECT * FROM no_such_table", Failure.UNDEFINED_NAME),
                Arguments.of("sqlite:" + sqlite, "SELECT json_extract('{}', 'not a path')", Failure.INVALID_VALUE),
                Arguments.of("postgresql://postgres@" + pg + "/sb_engine", "SELECT CAST('x' AS int)", Failure.INVALID_VALUE),
                Arguments.of("postgresql://postgres@" + pg + "/sb_engine", "SELECT 1 / 0", Failure.DIVISION_BY_ZERO),
                Arguments.of("postgresql://postgres@" + pg + "/sb_engine", "SELECT no_such_column FROM pg_class",
                        Failure.UNDEFINED_NAME),
                Arguments.of("mariadb://root@" + TestMariaDb.SERVER + "/" + maria, "SELECT * FROM no_such_table",
                        Failure.UNDEFINED_NAME),
                Arguments.of("mariadb://root@" + TestMariaDb.SERVER + "/" + maria, "SELEC 1", Failure.SYNTAX));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("failures")
    void eachEngineClassifiesItsOwnErrors(String address, String sql, Failure expected) throws Exception {
        SourceUrl url = SourceUrl.parse(address);
        Engine engine = engine(url);
        try (Connection c = engine.connect(url, Purpose.query(300)); Statement st = c.createStatement()) {
            st.execute(sql);
            fail(sql + " ran");
        } catch (SQLException e) {
            assertEquals(expected, engine.classify(e), e.getSQLState() + " " + e.getErrorCode() + " " + e.getMessage());
        }
    }
}
