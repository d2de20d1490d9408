package dev.schemabrain.engine.postgres.log;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code log_line_prefix} as a pattern that reads the stderr log's lines: the prefix's escapes become groups (time,
 * pid, session, user, database), then the severity and the message. {@code %q} makes the rest of the prefix optional,
 * as the server drops it for background processes. Padding ({@code %-10u}) is allowed.
 */
final class LinePrefix {

    /** The prefixes tried when none is given: Debian/Ubuntu's packaging default and pgBadger's recommended ones. */
    static final List<String> KNOWN = List.of(
            "%m [%p] %q%u@%d ",
            "%t [%p] %q%u@%d ",
            "%m [%p] %q%u@%d/%a ",
            "%t [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ",
            "%t [%p]: user=%u,db=%d,app=%a,client=%h ",
            "%m [%p]: [%l-1] user=%u,db=%d,app=%a,client=%h ",
            "%m [%p] %q[user=%u,db=%d,app=%a] ");

    private static final String SEVERITY = "(?<severity>DEBUG[1-5]?|INFO|NOTICE|WARNING|ERROR|LOG|FATAL|PANIC|DETAIL|HINT"
            + "|QUERY|CONTEXT|LOCATION|STATEMENT):  (?<message>.*)";
    private static final String STAMP = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d";

    private final String prefix;
    private final Pattern line;

    private LinePrefix(String prefix, Pattern line) {
        this.prefix = prefix;
        this.line = line;
    }

    String prefix() {
        return prefix;
    }

    /** Whether the prefix names the session's user and database, without which no statement can be placed. */
    boolean namesUserAndDatabase() {
        return line.pattern().contains("(?<user>") && line.pattern().contains("(?<database>");
    }

    /** The prefix as a line pattern; empty when it holds an escape the server does not know. */
    static Optional<LinePrefix> of(String prefix) {
        StringBuilder re = new StringBuilder("^");
        boolean optional = false;
        Set<String> named = new HashSet<>();
        for (int i = 0; i < prefix.length(); i++) {
            char ch = prefix.charAt(i);
            if (ch != '%') {
                re.append(ch == ' ' ? " +" : Pattern.quote(String.valueOf(ch)));
                continue;
            }
            int j = i + 1;
            while (j < prefix.length() && (prefix.charAt(j) == '-' || Character.isDigit(prefix.charAt(j)))) {
                j++;   // padding: the value may be followed or preceded by spaces
            }
            if (j >= prefix.length()) {
                return Optional.empty();
            }
            boolean padded = j > i + 1;
            char escape = prefix.charAt(j);
            i = j;
            if (escape == 'q') {
                re.append("(?:");
                optional = true;
                continue;
            }
            String part = part(escape, named);
            if (part == null) {
                return Optional.empty();
            }
            re.append(padded ? " *" + part + " *" : part);
        }
        if (optional) {
            re.append(")?");
        }
        re.append(SEVERITY);
        return Optional.of(new LinePrefix(prefix, Pattern.compile(re.toString(), Pattern.DOTALL)));
    }

    private static String part(char escape, Set<String> named) {
        return switch (escape) {
            case 'm' -> group("time", STAMP + "\\.\\d+(?: [^ \\]]+)?", named);
            case 't' -> group("time", STAMP + "(?: [^ \\]]+)?", named);
            case 'n' -> "\\d+\\.\\d+";
            case 's' -> STAMP + "(?: [^ \\]]+)?";
            case 'p' -> group("pid", "\\d+", named);
            case 'c' -> group("session", "[0-9a-f]+\\.[0-9a-f]+", named);
            case 'u' -> group("user", ".*?", named);
            case 'd' -> group("database", ".*?", named);
            case 'a', 'b', 'i', 'v', 'r', 'h', 'L' -> ".*?";
            case 'P', 'l', 'x' -> "\\d*";
            case 'e' -> "[0-9A-Z]{5}";
            case 'Q' -> "-?\\d+";
            case '%' -> "%";
            default -> null;
        };
    }

    private static String group(String name, String pattern, Set<String> named) {
        return named.add(name) ? "(?<" + name + ">" + pattern + ")" : "(?:" + pattern + ")";
    }

    /** The line's parts, when it starts a message written with this prefix. */
    Optional<Matcher> match(String text) {
        Matcher m = line.matcher(text);
        return m.matches() ? Optional.of(m) : Optional.empty();
    }
}
