package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.testing.SecurityFigures;
import dev.schemabrain.testing.TestCatalogs;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 29, item 13: each dialect's lexical rules, on texts a source may keep as they were sent. */
class SqlNormalizerDialectTest {

    private static final Set<String> CATALOG = Set.of("public", "customer", "first_name", "ssn", "customer_id", "Order Lines");

    private static String pg(String sql) {
        return SqlNormalizer.normalize(sql, Lexis.POSTGRESQL, n -> CATALOG.contains(n));
    }

    private static String my(String sql) {
        return SqlNormalizer.normalize(sql, Lexis.MYSQL, n -> CATALOG.contains(n));
    }

    @Test
    void eachDialectEndsLiteralsCommentsAndIdentifiersWhereItsServerDoes() throws Exception {
        record Case(String normalized, String expected) {
        }
        List<Case> cases = List.of(
                // standard_conforming_strings: 'C:\' is complete; the next literal is a literal, not SQL text.
                new Case(pg("SELECT ssn FROM customer WHERE first_name = 'C:\\' OR first_name = 'John Smith'"),
                        "SELECT ssn FROM customer WHERE first_name = ? OR first_name = ?"),
                // ...but in E'…' a backslash escapes.
                new Case(pg("SELECT ssn FROM customer WHERE first_name = E'it\\'s John' AND ssn = $1"),
                        "SELECT ssn FROM customer WHERE first_name = ? AND ssn = ?"),
                new Case(pg("SELECT first_name /* a /* b */ , ssn AS john_smith -- */\n FROM customer"),
                        "SELECT first_name FROM customer"),
                new Case(pg("SELECT 1 AS \"John Smith 123-45-6789\", customer_id AS \"John Smith 123-45-6789\" FROM customer"),
                        "SELECT ? AS _q1, customer_id AS _q1 FROM customer"),
                new Case(pg("SELECT c.first_name AS ssn_123456789 FROM \"Order Lines\" c"),
                        "SELECT c.first_name AS _q1 FROM \"Order Lines\" c"),
                new Case(pg("SELECT \"first_name\", \"Total\" FROM \"public\".\"customer\""),
                        "SELECT \"first_name\", \"Total\" FROM \"public\".\"customer\""),
                new Case(pg("SELECT ssn FROM customer WHERE customer_id = 987_654_321 OR customer_id = 0o17 OR customer_id = 0b1_01"),
                        "SELECT ssn FROM customer WHERE customer_id = ? OR customer_id = ? OR customer_id = ?"),
                // MySQL without ANSI_QUOTES: "…" is a string, with backslash escapes; comments do not nest.
                new Case(my("SELECT ssn FROM customer WHERE first_name = \"O\\\"Brien 555-12-3456\" AND ssn = 'x\\'y'"),
                        "SELECT ssn FROM customer WHERE first_name = ? AND ssn = ?"),
                new Case(my("SELECT first_name AS \"Jane Roe 987-65-4321\" FROM customer"),
                        "SELECT first_name AS _q1 FROM customer"),
                new Case(my("SELECT `customer_id` AS `John Smith 123-45-6789` FROM `customer` # John\n WHERE ssn = ?"),
                        "SELECT `customer_id` AS _q1 FROM `customer` WHERE ssn = ?"),
                new Case(my("SELECT first_name /* a /* b */ FROM customer WHERE customer_id = _utf8mb4'7' -- 42\n"),
                        "SELECT first_name FROM customer WHERE customer_id = ?"),
                new Case(my("SELECT `customer_id` AS ? FROM `customer` WHERE `ssn` IN (...)"),
                        "SELECT `customer_id` AS _q1 FROM `customer` WHERE `ssn` IN (?)"));
        List<String> failed = new ArrayList<>();
        for (Case k : cases) {
            if (!k.expected().equals(k.normalized())) {
                failed.add("expected " + k.expected() + "\n     got " + k.normalized());
            }
        }
        SecurityFigures.record("13 normalizer cases held (per-dialect literals, comments, identifiers)", cases.size() - failed.size(), cases.size());
        assertTrue(failed.isEmpty(), String.join("\n", failed));
    }

    /** A MySQL double-quoted string is a literal that never stays; it once stopped the whole mining run. */
    @Test
    void aMySqlDoubleQuotedStringIsAPlaceholderNotAFailure() {
        SqlNormalizer.Template t = SqlNormalizer.template("SELECT count(*) FROM customer WHERE first_name = \"Jane Roe\" OR ssn = 'x'",
                Lexis.MYSQL, n -> CATALOG.contains(n));
        assertEquals(2, t.literals().size(), t.toString());
        assertEquals("SELECT count(*) FROM customer WHERE first_name = ? OR ssn = 'x'", t.render(Set.of(1, 2)));
    }

    /**
     * A MySQL log is read as the server reads an application's statement by default (without ANSI_QUOTES), not as
     * SchemaBrain's pinned session does: there "..." is a string, on the pinned session a name.
     */
    @Test
    void aMySqlLogIsReadUnderTheServersDefaultsNotThePin() {
        Lexical pinned = Engines.MYSQL.sqlRules().orElseThrow().lexical();
        String sql = "SELECT \"Jane Roe\" FROM customer";
        assertEquals("SELECT ? FROM customer", my(sql));
        assertEquals("SELECT _q1 FROM customer", SqlNormalizer.normalize(sql, pinned, n -> CATALOG.contains(n)));
    }

    @Test
    void placeholdersKeepTheStatementParseable() {
        Catalog chinook = TestCatalogs.chinook();
        StatementAnalyzer analyzer = new StatementAnalyzer(chinook, SearchPaths.of(chinook, List.of("public")), PiiTags.NONE);
        assertTrue(analyzer.analyze(pg("SELECT c.email AS \"John Smith 123-45-6789\" FROM customer c")).isPresent());
        assertTrue(analyzer.analyze(my("SELECT `c` . `email` AS `John Smith` FROM `customer` `c`")).isPresent());
        assertEquals(SqlNormalizer.fingerprint(pg("SELECT 1 AS \"Jane Roe\"")), SqlNormalizer.fingerprint(pg("SELECT 2 AS \"John Doe\"")),
                "statements differing only in an alias's text count as one");
    }
}
