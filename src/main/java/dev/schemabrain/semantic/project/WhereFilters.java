package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.TimeGrain;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MetricFlow's where filters ({@code {{ Dimension('invoice__status') }} = 'paid' and …}) as SchemaBrain filters. Only
 * an AND of comparisons, IN lists and null tests translates; anything else (OR, SQL functions, other Jinja) is refused
 * with the reason, so a filter is never dropped or loosened.
 */
final class WhereFilters {

    /** A dimension or entity reference resolved to {@code entity.column}. */
    record Column(String reference, boolean time, boolean dateOnly) {
    }

    /** Resolves the names inside Dimension(…), TimeDimension(…) and Entity(…) against the semantic models. */
    interface Resolver {
        Column dimension(String name) throws SemanticProjectException;

        Column entity(String name) throws SemanticProjectException;
    }

    private static final Pattern TOKEN = Pattern.compile("\\s*(?:"
            + "(?<jinja>\\{\\{\\s*(?<fn>[A-Za-z_]+)\\s*\\((?<args>[^)]*)\\)(?<chain>(?:\\s*\\.\\s*[A-Za-z_]+\\s*\\([^)]*\\))*)\\s*}})"
            + "|'(?<string>(?:[^']|'')*)'"
            + "|(?<number>-?\\d+(?:\\.\\d+)?)"
            + "|(?<word>[A-Za-z_]+)"
            + "|(?<op><>|!=|<=|>=|[=<>(),]))");
    private static final Pattern QUOTED = Pattern.compile("\\s*(?:([A-Za-z_]+)\\s*=\\s*)?'([^']*)'\\s*(,|$)");
    private static final Map<String, FilterOp> COMPARISONS = Map.of("=", FilterOp.EQ, "<>", FilterOp.NE, "!=", FilterOp.NE,
            "<", FilterOp.LT, "<=", FilterOp.LTE, ">", FilterOp.GT, ">=", FilterOp.GTE);

    private record Token(String kind, String text, Jinja call) {
        boolean is(String word) {
            return (kind.equals("word") || kind.equals("op")) && text.equalsIgnoreCase(word);
        }
    }

    private record Jinja(String function, String name, String grain) {
    }

    private record Side(Column column, TimeGrain grain) {
    }

    private final String text;
    private final List<Token> tokens;
    private final Resolver resolver;
    private int at;

    private WhereFilters(String text, Resolver resolver) throws SemanticProjectException {
        this.text = text;
        this.resolver = resolver;
        this.tokens = tokenize(text);
    }

    /** Whether a {@code filter} node holds no condition. */
    static boolean isEmpty(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return true;
        }
        if (node.isTextual()) {
            return node.asText().isBlank();
        }
        JsonNode list = node.isArray() ? node : node.path("where_filters");
        for (JsonNode w : list) {
            if (!(w.isTextual() ? w.asText() : w.path("where_sql_template").asText("")).isBlank()) {
                return false;
            }
        }
        return true;
    }

    /** The filters of a {@code filter} node ({@code {where_filters: [{where_sql_template}]}}, a list, or one string). */
    static List<Filter> of(JsonNode node, Resolver resolver) throws SemanticProjectException {
        List<String> templates = new ArrayList<>();
        if (node == null || node.isNull() || node.isMissingNode()) {
            return List.of();
        }
        if (node.isTextual()) {
            templates.add(node.asText());
        } else {
            JsonNode list = node.isArray() ? node : node.path("where_filters");
            for (JsonNode w : list) {
                templates.add(w.isTextual() ? w.asText() : w.path("where_sql_template").asText(""));
            }
        }
        List<Filter> out = new ArrayList<>();
        for (String t : templates) {
            if (!t.isBlank()) {
                out.addAll(new WhereFilters(t, resolver).conjunction(true));
            }
        }
        return out;
    }

    private List<Token> tokenize(String s) throws SemanticProjectException {
        List<Token> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(s);
        int pos = 0;
        while (pos < s.length() && !s.substring(pos).isBlank()) {
            if (!m.find(pos) || m.start() != pos) {
                throw refuse("has '" + excerpt(s.substring(pos).strip()) + "', which is not a comparison SchemaBrain filters express");
            }
            pos = m.end();
            if (m.group("jinja") != null) {
                out.add(new Token("jinja", m.group("jinja"), jinja(m.group("fn"), m.group("args"), m.group("chain"))));
            } else if (m.group("string") != null) {
                out.add(new Token("string", m.group("string").replace("''", "'"), null));
            } else if (m.group("number") != null) {
                out.add(new Token("number", m.group("number"), null));
            } else if (m.group("word") != null) {
                out.add(new Token("word", m.group("word"), null));
            } else {
                out.add(new Token("op", m.group("op"), null));
            }
        }
        return out;
    }

    private Jinja jinja(String function, String args, String chain) throws SemanticProjectException {
        if (!List.of("Dimension", "TimeDimension", "Entity").contains(function)) {
            throw refuse("uses {{ " + function + "(…) }}, which has no SchemaBrain counterpart");
        }
        List<String> values = new ArrayList<>();
        Matcher q = QUOTED.matcher(args);
        int pos = 0;
        while (pos < args.length() && !args.substring(pos).isBlank()) {
            if (!q.find(pos) || q.start() != pos || q.group(1) != null && !q.group(1).equals("time_granularity_name")) {
                throw refuse("passes " + function + "(" + args.strip() + "), whose arguments SchemaBrain does not translate");
            }
            values.add(q.group(2));
            pos = q.end();
        }
        String grain = values.size() > 1 ? values.get(1) : null;
        if (values.isEmpty() || values.size() > 2 || function.equals("Entity") && grain != null) {
            throw refuse("passes " + function + "(" + args.strip() + "), whose arguments SchemaBrain does not translate");
        }
        Matcher c = Pattern.compile("\\.\\s*([A-Za-z_]+)\\s*\\(\\s*'([^']*)'\\s*\\)").matcher(chain.strip());
        int from = 0;
        String rest = chain.strip();
        while (from < rest.length()) {
            if (!c.find(from) || c.start() != from || !c.group(1).equals("grain")) {
                throw refuse("calls " + excerpt(rest) + " on " + function + "(…), which SchemaBrain does not translate");
            }
            grain = c.group(2);
            from = c.end();
        }
        return new Jinja(function, values.get(0), grain);
    }

    private Token peek() {
        return at < tokens.size() ? tokens.get(at) : new Token("end", "", null);
    }

    private boolean accept(String word) {
        if (peek().is(word)) {
            at++;
            return true;
        }
        return false;
    }

    private List<Filter> conjunction(boolean top) throws SemanticProjectException {
        List<Filter> out = new ArrayList<>(predicate());
        while (accept("and")) {
            out.addAll(predicate());
        }
        if (peek().is("or")) {
            throw refuse("combines conditions with OR, which SchemaBrain filters (all of which must hold) cannot express");
        }
        if (top && at < tokens.size()) {
            throw refuse("has '" + peek().text() + "' where a condition should end");
        }
        return out;
    }

    private List<Filter> predicate() throws SemanticProjectException {
        if (accept("(")) {
            List<Filter> inner = conjunction(false);
            if (!accept(")")) {
                throw refuse("has an unclosed parenthesis");
            }
            return inner;
        }
        if (peek().is("not")) {
            throw refuse("negates a condition with NOT, which SchemaBrain filters do not express");
        }
        Token left = peek();
        if (!left.kind().equals("jinja")) {
            throw refuse("compares '" + excerpt(left.text()) + "', not a {{ Dimension }}, {{ TimeDimension }} or {{ Entity }}");
        }
        at++;
        Side column = side(left.call());
        Token op = peek();
        if (accept("is")) {
            boolean not = accept("not");
            if (!accept("null")) {
                throw refuse("has IS without NULL");
            }
            return List.of(new Filter(column.column().reference(), not ? FilterOp.NOT_NULL : FilterOp.IS_NULL, null));
        }
        if (op.is("in") || op.is("not")) {
            boolean not = accept("not");
            if (!accept("in") || !accept("(")) {
                throw refuse("has NOT where only NOT IN or IS NOT NULL belong");
            }
            List<Object> values = new ArrayList<>();
            do {
                values.add(literal());
            } while (accept(","));
            if (!accept(")")) {
                throw refuse("has an IN list without its closing parenthesis");
            }
            exactOnTime(column, not ? FilterOp.NOT_IN : FilterOp.IN, null);
            return List.of(new Filter(column.column().reference(), not ? FilterOp.NOT_IN : FilterOp.IN, values));
        }
        FilterOp cmp = op.kind().equals("op") ? COMPARISONS.get(op.text()) : null;
        if (cmp == null) {
            throw refuse("has '" + excerpt(op.text()) + "' where a comparison (=, <>, <, >, IN, IS NULL) belongs");
        }
        at++;
        if (peek().kind().equals("jinja")) {
            Side other = side(tokens.get(at++).call());
            exactOnTime(column, cmp, null);
            exactOnTime(other, cmp, null);
            return List.of(Filter.columns(column.column().reference(), cmp, other.column().reference()));
        }
        Object value = literal();
        exactOnTime(column, cmp, value);
        return List.of(new Filter(column.column().reference(), cmp, value));
    }

    private Side side(Jinja call) throws SemanticProjectException {
        Column c = call.function().equals("Entity") ? resolver.entity(call.name()) : resolver.dimension(call.name());
        TimeGrain grain = null;
        if (c.time()) {
            String g = call.grain() == null ? "day" : call.grain();
            try {
                grain = TimeGrain.fromWire(g);
            } catch (IllegalArgumentException e) {
                throw refuse("reads " + call.name() + " by the grain '" + g + "', which SchemaBrain has no bucket for");
            }
        } else if (call.grain() != null) {
            throw refuse("gives a grain to " + call.name() + ", which is not a time dimension");
        }
        return new Side(c, grain);
    }

    /**
     * A time dimension is compared truncated to its grain. That is the plain column's comparison only for a date column by
     * day, or for {@code >=} and {@code <} against the first day of a bucket; anything else would shift the boundary.
     */
    private void exactOnTime(Side side, FilterOp op, Object value) throws SemanticProjectException {
        if (side.grain() == null || side.grain() == TimeGrain.DAY && side.column().dateOnly()) {
            return;
        }
        boolean boundary = value instanceof String s && startsBucket(s, side.grain());
        if (!(boundary && (op == FilterOp.GTE || op == FilterOp.LT))) {
            throw refuse("compares " + side.column().reference() + " truncated to " + side.grain().wireName()
                    + (value == null ? "" : " with '" + value + "'") + ", which differs from a comparison of the column itself");
        }
    }

    private static boolean startsBucket(String text, TimeGrain grain) {
        LocalDate d;
        try {
            d = LocalDate.parse(text.strip());
        } catch (DateTimeParseException e) {
            return false;
        }
        return switch (grain) {
            case DAY -> true;
            case WEEK -> d.getDayOfWeek() == DayOfWeek.MONDAY;
            case MONTH -> d.getDayOfMonth() == 1;
            case QUARTER -> d.getDayOfMonth() == 1 && (d.getMonthValue() - 1) % 3 == 0;
            case YEAR -> d.getDayOfYear() == 1;
        };
    }

    private Object literal() throws SemanticProjectException {
        Token t = peek();
        at++;
        switch (t.kind()) {
            case "string":
                return t.text();
            case "number":
                return t.text().contains(".") ? (Object) Double.valueOf(t.text()) : (Object) Long.valueOf(t.text());
            case "word":
                if (t.text().equalsIgnoreCase("true") || t.text().equalsIgnoreCase("false")) {
                    return Boolean.valueOf(t.text().toLowerCase(Locale.ROOT));
                }
                break;
            default:
                break;
        }
        throw refuse("has '" + excerpt(t.text()) + "' where a literal ('text', a number, true or false) belongs");
    }

    private SemanticProjectException refuse(String what) {
        return new SemanticProjectException("its filter \"" + excerpt(text.strip()) + "\" " + what);
    }

    private static String excerpt(String s) {
        return s.length() <= 100 ? s : s.substring(0, 97) + "...";
    }
}
