package dev.schemabrain.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Our own SQL scripts (migrations, the audit schema) as statements. */
public final class SqlScript {

    /** A SQLite trigger's body; a PostgreSQL trigger names a function and has none. */
    private static final Pattern SQLITE_BODY = Pattern.compile("\\bBEGIN\\b", Pattern.CASE_INSENSITIVE);

    private SqlScript() {
    }

    /**
     * Comments are whole lines or line ends, statements end with a semicolon, a {@code CREATE TRIGGER}
     * runs to its {@code END;} (its body holds semicolons of its own), and so does a PostgreSQL
     * {@code $$}-quoted function body.
     */
    public static List<String> statements(String script) {
        StringBuilder text = new StringBuilder();
        for (String line : script.split("\n")) {
            int comment = line.indexOf("--");
            text.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
        }
        List<String> out = new ArrayList<>();
        StringBuilder trigger = null;
        StringBuilder quoted = null;
        for (String part : text.toString().split(";")) {
            String sql = part.strip();
            if (quoted != null || dollarQuotes(sql) % 2 == 1) {
                quoted = quoted == null ? new StringBuilder(sql) : quoted.append("; ").append(sql);
                if (dollarQuotes(quoted.toString()) % 2 == 0) {
                    out.add(quoted.toString());
                    quoted = null;
                }
            } else if (trigger != null) {
                trigger.append("; ").append(sql);
                if (sql.toUpperCase(Locale.ROOT).endsWith("END")) {
                    out.add(trigger.toString());
                    trigger = null;
                }
            } else if (sql.toUpperCase(Locale.ROOT).startsWith("CREATE TRIGGER") && SQLITE_BODY.matcher(sql).find()) {
                trigger = new StringBuilder(sql);
            } else if (!sql.isEmpty()) {
                out.add(sql);
            }
        }
        if (trigger != null || quoted != null) {
            throw new IllegalStateException("a CREATE TRIGGER or $$ body in a script has no end");
        }
        return out;
    }

    private static int dollarQuotes(String sql) {
        int n = 0;
        for (int i = sql.indexOf("$$"); i >= 0; i = sql.indexOf("$$", i + 2)) {
            n++;
        }
        return n;
    }
}
