package dev.schemabrain.engine.postgres.log;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;

/**
 * The default stderr format (also what the logging collector writes to {@code .log} files): each message starts
 * with the {@code log_line_prefix}, its further lines start with a tab, and its DETAIL is a message of its own with
 * the same prefix right after it.
 */
final class StderrLog {

    private StderrLog() {
    }

    /** Reads every line with {@code prefix}; returns how many lines neither start a message nor continue one. */
    static int read(BufferedReader in, LinePrefix prefix, Consumer<LogEntry> out) throws IOException {
        int foreign = 0;
        // A message waits until its session's next message: that may be its DETAIL.
        Map<String, LogEntry> waiting = new HashMap<>();
        LogEntry last = null;
        boolean lastWasDetail = false;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("\t") && last != null) {
                LogEntry longer = lastWasDetail ? last.withDetail(last.detail() + "\n" + line.substring(1))
                        : last.withMoreMessage(line.substring(1));
                waiting.replace(key(last), longer);
                last = longer;
                continue;
            }
            Optional<Matcher> m = prefix.match(line);
            if (m.isEmpty()) {
                foreign += line.isBlank() ? 0 : 1;
                continue;
            }
            LogEntry entry = entry(m.get());
            String key = key(entry);
            LogEntry before = waiting.remove(key);
            lastWasDetail = before != null && entry.severity().equals("DETAIL") && before.detail() == null;
            if (lastWasDetail) {
                entry = before.withDetail(entry.message());
            } else if (before != null) {
                out.accept(before);
            }
            waiting.put(key, entry);
            last = entry;
        }
        waiting.values().forEach(out);
        return foreign;
    }

    private static String key(LogEntry e) {
        return e.session() == null ? "" : e.session();
    }

    private static LogEntry entry(Matcher m) {
        String session = group(m, "session") != null ? group(m, "session") : group(m, "pid");
        return new LogEntry(LogTime.parse(group(m, "time")), session, blank(group(m, "user")), blank(group(m, "database")),
                m.group("severity"), m.group("message"), null);
    }

    private static String group(Matcher m, String name) {
        try {
            return m.group(name);
        } catch (IllegalArgumentException e) {
            return null;   // the prefix has no such escape
        }
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() || s.equals("[unknown]") ? null : s;
    }
}
