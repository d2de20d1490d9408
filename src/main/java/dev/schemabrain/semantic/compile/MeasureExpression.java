package dev.schemabrain.semantic.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The whitelisted grammar of a metric's measure expression: column names, unsigned decimal numbers,
 * {@code + - * /} and parentheses. Anything else is refused, so an expression cannot smuggle SQL.
 */
public final class MeasureExpression {

    private static final Pattern TOKEN = Pattern.compile(
            "\\s*(?:(?<name>[A-Za-z_][A-Za-z0-9_]*)|(?<number>\\d{1,18}(?:\\.\\d{1,18})?)|(?<op>[-+*/()]))");

    private MeasureExpression() {
    }

    /** The column names the expression reads, in order of appearance. */
    public static List<String> columns(String expression) throws CompileException {
        List<String> names = new ArrayList<>();
        for (String[] token : tokens(expression)) {
            if (token[0].equals("name")) {
                names.add(token[1]);
            }
        }
        return names;
    }

    /** The expression as SQL, each column name replaced by {@code column.apply(name)}. */
    static String render(String expression, Function<String, String> column) throws CompileException {
        StringBuilder sql = new StringBuilder();
        for (String[] token : tokens(expression)) {
            if (!sql.isEmpty()) {
                sql.append(' ');
            }
            sql.append(token[0].equals("name") ? column.apply(token[1]) : token[1]);
        }
        return sql.toString();
    }

    private static List<String[]> tokens(String expression) throws CompileException {
        List<String[]> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(expression);
        int at = 0;
        int depth = 0;
        boolean operandExpected = true;
        while (at < expression.length()) {
            if (expression.substring(at).isBlank()) {
                break;
            }
            if (!m.find(at) || m.start() != at) {
                throw invalid(expression, "an unexpected character at position " + (at + 1));
            }
            at = m.end();
            if (m.group("name") != null || m.group("number") != null) {
                if (!operandExpected) {
                    throw invalid(expression, "two operands in a row");
                }
                tokens.add(m.group("name") != null ? new String[]{"name", m.group("name")} : new String[]{"number", m.group("number")});
                operandExpected = false;
                continue;
            }
            String op = m.group("op");
            switch (op) {
                case "(" -> {
                    if (!operandExpected) {
                        throw invalid(expression, "a parenthesis after an operand");
                    }
                    depth++;
                }
                case ")" -> {
                    if (operandExpected || --depth < 0) {
                        throw invalid(expression, "an unbalanced parenthesis");
                    }
                }
                default -> {
                    if (operandExpected) {
                        throw invalid(expression, "an operator without an operand before it");
                    }
                    operandExpected = true;
                }
            }
            tokens.add(new String[]{"op", op});
        }
        if (operandExpected || depth != 0 || tokens.isEmpty()) {
            throw invalid(expression, "an incomplete expression");
        }
        return tokens;
    }

    private static CompileException invalid(String expression, String what) {
        return new CompileException(Problem.UNKNOWN_MEASURE_COLUMN, "The measure expression '" + expression + "' has " + what
                + "; only column names, numbers, + - * / and parentheses are allowed.", List.of());
    }
}
