package dev.schemabrain.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The identifier rules of the tool surface: a dotted name whose parts each match
 * {@code ^[A-Za-z_][A-Za-z0-9_$]*$} and are at most 63 characters, the whole input at most 512.
 *
 * <p>Extension: a part may be double-quoted ({@code public."Order Details"}) to address catalog
 * objects whose real names break the plain rule; inside the quotes any character but {@code "} is
 * allowed, 1 to 63 of them. The quotes are removed from the parsed part.
 *
 * <p>Problem sentences never echo more than the first 64 characters of what the caller sent,
 * because the input is untrusted and may be huge.
 */
public final class NameSyntax {

    public static final int MAX_PART_LENGTH = 63;
    public static final int MAX_INPUT_LENGTH = 512;
    /** How much of the caller's input a problem sentence may repeat. */
    public static final int ECHO_LENGTH = 64;

    private static final Pattern PLAIN_PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final List<String> LABELS = List.of("schema", "table", "column");

    private NameSyntax() {
    }

    /** Either the parts of a well-formed name or a sentence saying what is wrong with it. */
    public sealed interface Result permits Parts, Problem {
    }

    /** A well-formed name; quoted parts are given without their quotes. */
    public record Parts(List<String> parts) implements Result {
        public Parts {
            parts = List.copyOf(parts);
        }
    }

    /** A sentence for the caller, e.g. {@code "expected schema.table"}. */
    public record Problem(String message) implements Result {
    }

    /**
     * Parses {@code input} into {@code minParts..maxParts} dot-separated parts. Surrounding
     * whitespace is ignored (agents often send it); whitespace inside an unquoted part is not.
     * With {@code maxParts} ≤ 3 the parts are named schema, table, column in the problem sentences
     * (a two-part shape under {@code maxParts = 3} is {@code table.column}).
     */
    public static Result parse(String input, int minParts, int maxParts) {
        if (minParts < 1 || maxParts < minParts) {
            throw new IllegalArgumentException("bad part range " + minParts + ".." + maxParts);
        }
        if (input == null || input.isBlank()) {
            return new Problem("name is empty; expected " + expected(minParts, maxParts));
        }
        if (input.length() > MAX_INPUT_LENGTH) {
            return new Problem("name is longer than " + MAX_INPUT_LENGTH + " characters");
        }
        String text = input.strip();
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (true) {
            String part;
            if (i < text.length() && text.charAt(i) == '"') {
                int close = text.indexOf('"', i + 1);
                if (close < 0) {
                    return new Problem(quoteForMessage(text) + " is not a valid name: a quoted part is not closed.");
                }
                part = text.substring(i + 1, close);
                if (part.isEmpty()) {
                    return new Problem(quoteForMessage(text) + " is not a valid name: a quoted part is empty.");
                }
                i = close + 1;
                if (i < text.length() && text.charAt(i) != '.') {
                    return new Problem(quoteForMessage(text)
                            + " is not a valid name: a quoted part must be followed by '.' or end the name.");
                }
            } else {
                int dot = text.indexOf('.', i);
                int end = dot < 0 ? text.length() : dot;
                part = text.substring(i, end);
                if (part.isEmpty()) {
                    return new Problem(quoteForMessage(text) + " is not a valid name: it has an empty part.");
                }
                if (!PLAIN_PART.matcher(part).matches()) {
                    return new Problem(quoteForMessage(text) + " is not a valid name: each part must start with a "
                            + "letter or underscore and contain only letters, digits, _ or $.");
                }
                i = end;
            }
            if (part.codePointCount(0, part.length()) > MAX_PART_LENGTH) {
                return new Problem(quoteForMessage(text) + " is not a valid name: part " + quoteForMessage(part)
                        + " is longer than " + MAX_PART_LENGTH + " characters.");
            }
            parts.add(part);
            if (i >= text.length()) {
                break;
            }
            i++; // skip the dot
            if (i >= text.length()) {
                return new Problem(quoteForMessage(text) + " is not a valid name: it has an empty part.");
            }
        }
        if (parts.size() < minParts || parts.size() > maxParts) {
            return new Problem("expected " + expected(minParts, maxParts) + ", got " + quoteForMessage(text));
        }
        return new Parts(parts);
    }

    /** Whether {@code part} can be written without quotes. */
    public static boolean isPlain(String part) {
        return part.length() <= MAX_PART_LENGTH && PLAIN_PART.matcher(part).matches();
    }

    /** One part as a caller should write it: as is when plain, otherwise double-quoted. */
    public static String render(String part) {
        return isPlain(part) ? part : '"' + part + '"';
    }

    /** A dotted name a caller can send back, e.g. {@code public."Order Details"}. */
    public static String render(List<String> parts) {
        return String.join(".", parts.stream().map(NameSyntax::render).toList());
    }

    public static String render(QualifiedName name) {
        return render(List.of(name.schema(), name.table()));
    }

    public static String render(QualifiedName table, String column) {
        return render(List.of(table.schema(), table.table(), column));
    }

    /** The first 64 characters of {@code text}, with "…" when something was cut. */
    public static String excerpt(String text) {
        if (text.length() <= ECHO_LENGTH) {
            return text;
        }
        int end = ECHO_LENGTH;
        // Never cut a surrogate pair in half.
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }

    private static String quoteForMessage(String text) {
        return "'" + excerpt(text) + "'";
    }

    /** E.g. "schema.table.column or table.column" for 2..3 parts. */
    static String expected(int minParts, int maxParts) {
        List<String> shapes = new ArrayList<>();
        for (int n = maxParts; n >= minParts; n--) {
            shapes.add(shape(n, maxParts));
        }
        return String.join(" or ", shapes);
    }

    private static String shape(int parts, int maxParts) {
        if (maxParts > LABELS.size()) {
            return parts == 1 ? "a name with 1 part" : "a name with " + parts + " dot-separated parts";
        }
        return String.join(".", LABELS.subList(maxParts - parts, maxParts));
    }
}
