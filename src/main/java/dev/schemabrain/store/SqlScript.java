package dev.schemabrain.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Our own SQL scripts (migrations, the audit schema) as statements. */
public final class SqlScript {

    private SqlScript() {
    }

    /**
     * Comments are whole lines or line ends, statements end with a semicolon, and a {@code CREATE TRIGGER}
     * runs to its {@code END;} (its body holds semicolons of its own).
     */
    public static List<String> statements(String script) {
        StringBuilder text = new StringBuilder();
        for (String line : script.split("\n")) {
            int comment = line.indexOf("--");
            text.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
        }
        List<String> out = new ArrayList<>();
        StringBuilder trigger = null;
        for (String part : text.toString().split(";")) {
            String sql = part.strip();
            if (trigger != null) {
                trigger.append("; ").append(sql);
                if (sql.toUpperCase(Locale.ROOT).endsWith("END")) {
                    out.add(trigger.toString());
                    trigger = null;
                }
            } else if (sql.toUpperCase(Locale.ROOT).startsWith("CREATE TRIGGER")) {
                trigger = new StringBuilder(sql);
            } else if (!sql.isEmpty()) {
                out.add(sql);
            }
        }
        if (trigger != null) {
            throw new IllegalStateException("a CREATE TRIGGER in a script has no END");
        }
        return out;
    }
}
