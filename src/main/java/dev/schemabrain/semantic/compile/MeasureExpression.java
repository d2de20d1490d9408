package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whitelisted grammar of a measure expression (and of a derived metric's arithmetic): names
 * ({@code column}, or {@code entity.column} for a many-to-one parent's column), unsigned numbers,
 * {@code + - * /}, parentheses, {@code COALESCE(a, b, …)} and {@code CASE WHEN condition THEN expr … [ELSE expr]
 * END}. A condition compares operands ({@code = <> != < <= > >=}), tests {@code [NOT] IN (literals)} or
 * {@code IS [NOT] NULL}, and combines with AND, OR, NOT and parentheses. String literals are short and plain
 * (letters, digits, space, {@code _ . - : /}), so they are written into the SQL as they are and compare with an
 * ENUM as its own literals do. Anything else is refused: an expression cannot smuggle SQL.
 */
public final class MeasureExpression {

    private static final Pattern TOKEN = Pattern.compile("\\s*(?:"
            + "(?<name>[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?)"
            + "|(?<number>\\d{1,18}(?:\\.\\d{1,18})?)"
            + "|'(?<string>[A-Za-z0-9 _.:/-]{0,64})'"
            + "|(?<op><>|!=|<=|>=|[-+*/(),=<>]))");
    private static final Set<String> KEYWORDS = Set.of("CASE", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "NOT", "IN",
            "IS", "NULL", "COALESCE");

    private MeasureExpression() {
    }

    /** The names the expression reads (columns, or metrics in a derived metric), in order of first appearance. */
    public static List<String> columns(String expression) throws CompileException {
        Parser p = new Parser(expression);
        p.parse(new StringBuilder(), name -> name);
        return List.copyOf(p.names);
    }

    /** The expression as SQL, each name replaced by {@code column.apply(name)}. */
    public static String render(String expression, Function<String, String> column) throws CompileException {
        StringBuilder sql = new StringBuilder();
        new Parser(expression).parse(sql, column);
        return sql.toString();
    }

    private record Token(String kind, String text, int at) {
        boolean is(String kindOrText) {
            return kind.equals(kindOrText) || (kind.equals("op") || kind.equals("keyword")) && text.equals(kindOrText);
        }
    }

    /** Recursive descent over the tokens, writing SQL as it goes; a failed guess at a parenthesised condition backs up. */
    private static final class Parser {
        private final String expression;
        private final List<Token> tokens;
        private final Set<String> names = new LinkedHashSet<>();
        private int at;
        private Function<String, String> column;

        Parser(String expression) throws CompileException {
            this.expression = expression == null ? "" : expression;
            this.tokens = tokenize(this.expression);
        }

        void parse(StringBuilder out, Function<String, String> column) throws CompileException {
            this.column = column;
            if (tokens.isEmpty()) {
                throw invalid("nothing in it");
            }
            expr(out);
            if (at < tokens.size()) {
                throw invalid("'" + tokens.get(at).text() + "' where the expression should end");
            }
        }

        private List<Token> tokenize(String text) throws CompileException {
            List<Token> out = new ArrayList<>();
            Matcher m = TOKEN.matcher(text);
            int pos = 0;
            while (pos < text.length()) {
                if (text.substring(pos).isBlank()) {
                    break;
                }
                if (!m.find(pos) || m.start() != pos) {
                    throw invalid("an unexpected character at position " + (firstNonSpace(text, pos) + 1));
                }
                pos = m.end();
                if (m.group("name") != null) {
                    String upper = m.group("name").toUpperCase(Locale.ROOT);
                    out.add(KEYWORDS.contains(upper) ? new Token("keyword", upper, pos) : new Token("name", m.group("name"), pos));
                } else if (m.group("number") != null) {
                    out.add(new Token("number", m.group("number"), pos));
                } else if (m.group("string") != null) {
                    out.add(new Token("string", m.group("string"), pos));
                } else {
                    out.add(new Token("op", m.group("op").equals("!=") ? "<>" : m.group("op"), pos));
                }
            }
            return out;
        }

        private static int firstNonSpace(String text, int from) {
            int i = from;
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            return i;
        }

        private Token peek() {
            return at < tokens.size() ? tokens.get(at) : new Token("end", "", expression.length());
        }

        private boolean accept(String what) {
            if (peek().is(what)) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(String what) throws CompileException {
            if (!accept(what)) {
                throw invalid(peek().kind().equals("end") ? "no '" + what + "' before its end"
                        : "'" + peek().text() + "' where '" + what + "' belongs");
            }
        }

        void expr(StringBuilder out) throws CompileException {
            term(out);
            while (peek().is("+") || peek().is("-")) {
                out.append(' ').append(tokens.get(at++).text()).append(' ');
                term(out);
            }
        }

        /** Division is never integer division and never fails on zero: {@code (a) * 1.0 / NULLIF(b, 0)}. */
        private void term(StringBuilder out) throws CompileException {
            StringBuilder left = new StringBuilder();
            factor(left);
            while (peek().is("*") || peek().is("/")) {
                boolean divide = tokens.get(at++).text().equals("/");
                StringBuilder right = new StringBuilder();
                factor(right);
                left = divide ? new StringBuilder("(" + left + ") * 1.0 / NULLIF(" + right + ", 0)")
                        : left.append(" * ").append(right);
            }
            out.append(left);
        }

        private void factor(StringBuilder out) throws CompileException {
            Token t = peek();
            if (accept("-")) {
                // Parenthesised, so two minus signs never meet as "--", which SQL reads as a comment.
                out.append("(-");
                factor(out);
                out.append(')');
            } else if (t.kind().equals("number")) {
                at++;
                out.append(t.text());
            } else if (t.kind().equals("name")) {
                at++;
                names.add(t.text());
                out.append(column.apply(t.text()));
            } else if (accept("(")) {
                out.append('(');
                expr(out);
                expect(")");
                out.append(')');
            } else if (accept("COALESCE")) {
                expect("(");
                out.append("COALESCE(");
                expr(out);
                while (accept(",")) {
                    out.append(", ");
                    expr(out);
                }
                expect(")");
                out.append(')');
            } else if (accept("CASE")) {
                out.append("CASE");
                if (!peek().is("WHEN")) {
                    throw invalid("CASE without WHEN");
                }
                while (accept("WHEN")) {
                    out.append(" WHEN ");
                    condition(out);
                    expect("THEN");
                    out.append(" THEN ");
                    expr(out);
                }
                if (accept("ELSE")) {
                    out.append(" ELSE ");
                    expr(out);
                }
                expect("END");
                out.append(" END");
            } else {
                throw invalid(t.kind().equals("end") ? "an incomplete expression" : "'" + t.text() + "' where a value belongs");
            }
        }

        private void condition(StringBuilder out) throws CompileException {
            conjunction(out);
            while (accept("OR")) {
                out.append(" OR ");
                conjunction(out);
            }
        }

        private void conjunction(StringBuilder out) throws CompileException {
            negation(out);
            while (accept("AND")) {
                out.append(" AND ");
                negation(out);
            }
        }

        private void negation(StringBuilder out) throws CompileException {
            if (accept("NOT")) {
                out.append("NOT ");
                negation(out);
                return;
            }
            if (peek().is("(")) {
                // "(a + b) > 3" or "(x = 1 OR y = 2)": try the grouped condition, else back up to a comparison.
                int mark = at;
                int length = out.length();
                Set<String> seen = new LinkedHashSet<>(names);
                try {
                    at++;
                    out.append('(');
                    condition(out);
                    expect(")");
                    out.append(')');
                    if (!isComparison(peek())) {
                        return;
                    }
                } catch (CompileException notACondition) {
                    // a parenthesised value after all
                }
                at = mark;
                out.setLength(length);
                names.clear();
                names.addAll(seen);
            }
            predicate(out);
        }

        private static boolean isComparison(Token t) {
            return t.kind().equals("op") && Set.of("=", "<>", "<", "<=", ">", ">=").contains(t.text());
        }

        private void predicate(StringBuilder out) throws CompileException {
            operand(out);
            Token t = peek();
            if (isComparison(t)) {
                at++;
                out.append(' ').append(t.text()).append(' ');
                operand(out);
            } else if (accept("IS")) {
                boolean not = accept("NOT");
                expect("NULL");
                out.append(not ? " IS NOT NULL" : " IS NULL");
            } else if (t.is("IN") || t.is("NOT")) {
                boolean not = accept("NOT");
                expect("IN");
                expect("(");
                out.append(not ? " NOT IN (" : " IN (");
                literal(out);
                while (accept(",")) {
                    out.append(", ");
                    literal(out);
                }
                expect(")");
                out.append(')');
            } else {
                throw invalid(t.kind().equals("end") ? "a condition without a comparison"
                        : "'" + t.text() + "' where a comparison (=, <>, <, >, IN, IS NULL) belongs");
            }
        }

        private void operand(StringBuilder out) throws CompileException {
            if (peek().kind().equals("string")) {
                literal(out);
            } else {
                expr(out);
            }
        }

        private void literal(StringBuilder out) throws CompileException {
            Token t = peek();
            if (t.kind().equals("string")) {
                at++;
                out.append('\'').append(t.text()).append('\'');
            } else if (t.kind().equals("number")) {
                at++;
                out.append(t.text());
            } else if (accept("-") && peek().kind().equals("number")) {
                out.append('-').append(tokens.get(at++).text());
            } else {
                throw invalid("'" + t.text() + "' where a literal ('text' or a number) belongs");
            }
        }

        private CompileException invalid(String what) {
            return new CompileException(ErrorKind.UNKNOWN_MEASURE_COLUMN, "The expression '" + excerpt(expression) + "' has "
                    + what + "; only names, numbers, 'short text', + - * /, parentheses, COALESCE and CASE WHEN … THEN …"
                    + " ELSE … END are allowed.", List.of());
        }

        private static String excerpt(String text) {
            return text.length() <= 120 ? text : text.substring(0, 117) + "...";
        }
    }
}
