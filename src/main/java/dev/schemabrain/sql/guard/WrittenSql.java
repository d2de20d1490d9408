package dev.schemabrain.sql.guard;

import dev.schemabrain.sql.lex.Lexical;
import net.sf.jsqlparser.statement.Statement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The last look at the text that is about to reach the database: it must be SchemaBrain's own
 * rendering, read the same way by the engine's lexer and by the parser. Two checks, both fail closed:
 * <ol>
 * <li>the engine's lexical rules ({@link Lexical}) cut the text into the literals SchemaBrain wrote and
 *     nothing else: no comment, no other quoting form, no statement end, the same string values (under both
 *     readings of a backslash where a server setting decides it);</li>
 * <li>the parser reads the text back as a tree whose canonical rendering is the text itself.</li>
 * </ol>
 */
public final class WrittenSql {

    private WrittenSql() {
    }

    /** Empty when {@code sql} may run; otherwise the refusal, whose message says nothing of the text. */
    public static Optional<Refusal> check(String sql, SqlRules rules, List<String> literals) {
        return check(sql, rules, literals, false);
    }

    /**
     * As {@link #check(String, SqlRules, List)} for a statement derived from part of the rendering (a count of the
     * groups a level leaves out): each literal the engine reads must be one written, but not every one need appear.
     */
    public static Optional<Refusal> checkPart(String sql, SqlRules rules, List<String> literals) {
        return check(sql, rules, literals, true);
    }

    private static Optional<Refusal> check(String sql, SqlRules rules, List<String> literals, boolean part) {
        Lexical lexical = rules.lexical();
        List<String> expected = new ArrayList<>(literals);
        Collections.sort(expected);
        for (boolean backslashes : lexical.backslashBySetting()
                ? new boolean[] {lexical.backslashEscapes(), !lexical.backslashEscapes()}
                : new boolean[] {lexical.backslashEscapes()}) {
            Optional<List<String>> read = EngineLexer.strings(sql, lexical, backslashes);
            if (read.isEmpty()) {
                return Optional.of(mismatch(rules));
            }
            List<String> found = new ArrayList<>(read.get());
            Collections.sort(found);
            if (part ? !containsAll(expected, found) : !found.equals(expected)) {
                return Optional.of(mismatch(rules));
            }
        }
        try {
            Statement again = Parsing.statement(sql);
            Rendering.canonicalize(again, rules, Map.of());
            if (!again.toString().equals(sql)) {
                return Optional.of(mismatch(rules));
            }
        } catch (net.sf.jsqlparser.JSQLParserException | RuntimeException e) {
            return Optional.of(mismatch(rules));
        } catch (StackOverflowError e) {
            return Optional.of(mismatch(rules));
        }
        return Optional.empty();
    }

    /** Whether the sorted multiset {@code all} holds each element of the sorted multiset {@code some}, counted. */
    private static boolean containsAll(List<String> all, List<String> some) {
        List<String> left = new ArrayList<>(all);
        for (String s : some) {
            if (!left.remove(s)) {
                return false;
            }
        }
        return true;
    }

    private static Refusal mismatch(SqlRules rules) {
        return Refusal.of(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The statement SchemaBrain wrote from this query would"
                + " not be read by " + rules.title() + " exactly as it was checked, so it does not run; write literals"
                + " and names in plain form ('text', 123, \"name\") and avoid unusual syntax.");
    }
}
