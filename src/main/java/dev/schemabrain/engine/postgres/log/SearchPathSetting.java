package dev.schemabrain.engine.postgres.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's search_path as written in a setting or a {@code SET search_path} statement: schema names in order,
 * a double-quoted one as written, an unquoted one folded to lower case (as the server does), {@code $user} kept
 * for the caller to expand.
 */
public final class SearchPathSetting {

    private static final Pattern SET = Pattern.compile(
            "^\\s*SET\\s+(?:SESSION\\s+|LOCAL\\s+)?search_path\\s*(?:=|\\bTO\\b)\\s*(.+?)\\s*;?\\s*$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ITEM = Pattern.compile("\\s*(\"(?:[^\"]|\"\")*\"|'(?:[^']|'')*'|[^,\\s]+)\\s*(?:,|$)");

    private SearchPathSetting() {
    }

    public static List<String> parse(String value) {
        List<String> out = new ArrayList<>();
        Matcher m = ITEM.matcher(value.strip());
        while (m.find() && !m.group(1).isEmpty()) {
            String item = m.group(1);
            if (item.startsWith("\"")) {
                out.add(item.substring(1, item.length() - 1).replace("\"\"", "\""));
            } else if (item.startsWith("'")) {
                out.addAll(parse(item.substring(1, item.length() - 1).replace("''", "'")));
            } else {
                out.add(item.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /** The path a logged {@code SET search_path …} statement sets; empty for any other statement (or DEFAULT). */
    public static Optional<List<String>> ofStatement(String sql) {
        Matcher m = SET.matcher(sql);
        if (!m.matches() || m.group(1).equalsIgnoreCase("default")) {
            return Optional.empty();
        }
        List<String> path = parse(m.group(1));
        return path.isEmpty() ? Optional.empty() : Optional.of(path);
    }
}
