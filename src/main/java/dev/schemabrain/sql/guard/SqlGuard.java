package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.Catalog;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The entry point: one SQL text, the engine it is meant for and the catalog in, a {@link BoundSelect} or a
 * {@link Refusal} out. Order: the raw-text screen, the parse (exactly one statement, a SELECT), the bind with
 * lineage, the census of the whole tree, then its rendering: literals and names rewritten in the engine's canonical
 * forms, so what runs is SchemaBrain's text, never the caller's. Stateless and thread-safe.
 */
public final class SqlGuard {

    /** Longer texts are refused before parsing: no analyst query needs this much, a parser bomb might. */
    public static final int MAX_LENGTH = 100_000;

    private SqlGuard() {
    }

    public static GuardResult check(String sql, SqlRules engine, Catalog catalog) {
        if (sql == null || sql.isBlank()) {
            return Refusal.of(Refusal.Reason.NOT_A_SINGLE_SELECT, "The SQL is empty; send one SELECT.");
        }
        if (sql.length() > MAX_LENGTH) {
            return Refusal.of(Refusal.Reason.SYNTAX_ERROR, "The SQL is longer than " + MAX_LENGTH
                    + " characters; send a shorter query.");
        }
        Optional<Refusal> screened = Prescreen.check(sql, engine.lexical());
        if (screened.isPresent()) {
            return screened.get();
        }
        Statement statement;
        try {
            Statements statements = Parsing.statements(sql);
            List<Statement> list = statements == null ? List.of() : statements;
            if (list.size() != 1) {
                return Refusal.of(Refusal.Reason.NOT_A_SINGLE_SELECT,
                        "The SQL holds " + list.size() + " statements; send exactly one SELECT.");
            }
            statement = list.get(0);
        } catch (StackOverflowError e) {
            return tooDeep();
        } catch (JSQLParserException | RuntimeException e) {
            return Refusal.of(Refusal.Reason.SYNTAX_ERROR, "The SQL could not be parsed as "
                    + engine.title() + " SELECT syntax; check it near "
                    + where(e) + ".");
        }
        if (!(statement instanceof Select select)) {
            String kind = statement.getClass().getSimpleName();
            boolean dml = switch (kind) {
                case "Insert", "Update", "Delete", "Merge", "Upsert", "Replace" -> true;
                default -> false;
            };
            return Refusal.of(dml ? Refusal.Reason.DML_IN_STATEMENT : Refusal.Reason.NOT_A_SINGLE_SELECT,
                    dml ? "The statement changes data (" + kind.toUpperCase(Locale.ROOT)
                            + "); only SELECT is allowed."
                            : "The statement is not a SELECT (" + kind + "); send one SELECT.");
        }
        Binder binder = new Binder(engine, catalog);
        try {
            List<OutputColumn> outputs = binder.bindTop(select);
            AstCensus.check(select, binder.seen);
            Rendering.Literals literals;
            try {
                literals = Rendering.canonicalize(select, engine, binder.bound);
            } catch (Binder.Refused refused) {
                return new BoundSelect(binder.tables, outputs, binder.filters, binder.shaping, binder.aggregatePredicates, select, List.of(),
                        Optional.of(refused.refusal));
            }
            return new BoundSelect(binder.tables, outputs, binder.filters, binder.shaping, binder.aggregatePredicates, select, literals.values(),
                    Optional.empty());
        } catch (Binder.Refused refused) {
            return refused.refusal;
        } catch (StackOverflowError e) {
            return tooDeep();
        } catch (RuntimeException e) {
            // A tree shape the binder was not written for: refused, never guessed at.
            return Refusal.of(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The checker could not follow this query's"
                    + " structure; rewrite it with plain joins, subqueries and CTEs.");
        }
    }

    private static Refusal tooDeep() {
        return Refusal.of(Refusal.Reason.SYNTAX_ERROR, "The SQL nests too deeply to check (thousands of levels of"
                + " parentheses, subqueries or AND/OR); simplify it, e.g. with IN (...) lists or CTEs.");
    }

    /** Where the parser stopped, as line and column, without echoing the text. */
    private static String where(Exception e) {
        String message = String.valueOf(e.getMessage());
        Matcher m = Pattern.compile("line (\\d+), column (\\d+)").matcher(message);
        return m.find() ? "line " + m.group(1) + ", column " + m.group(2) : "the start";
    }
}
