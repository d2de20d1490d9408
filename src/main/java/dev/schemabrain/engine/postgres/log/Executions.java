package dev.schemabrain.engine.postgres.log;

import dev.schemabrain.engine.LoggedStatement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements a server log's messages record, counted: {@code statement:} (simple protocol, log_statement) and
 * {@code execute …:} (extended protocol) with or without a {@code duration:}; the extended protocol's parse and bind
 * steps and a cursor's further fetches are not new executions. An execute's bind parameters are written into its
 * text as literals, so the one normalizer decides which may stay, like any other literal: only a value the catalog
 * already shows for a non-PII column is kept. Each session's {@code SET search_path} is followed, so every statement
 * carries the path its session had.
 */
final class Executions implements Consumer<LogEntry> {

    private static final Pattern EXECUTED = Pattern.compile(
            "^(?:duration: [0-9.]+ ms\\s+)?(statement|execute fetch from [^:]*|execute [^:]*|parse [^:]*|bind [^:]*): (.*)$",
            Pattern.DOTALL);
    private static final Pattern PARAMETER = Pattern.compile("\\$(\\d+) = ('(?:[^']|'')*'|NULL)");
    private static final Pattern DOLLAR_TAG = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)?\\$");
    private static final Pattern RESET_PATH = Pattern.compile(
            "^\\s*(?:RESET\\s+(?:search_path|ALL)|DISCARD\\s+ALL|SET\\s+(?:SESSION\\s+)?search_path\\s*(?:=|TO)\\s*DEFAULT)\\s*;?\\s*$",
            Pattern.CASE_INSENSITIVE);

    /** One shape of statement: where, by whom, under which session path. */
    private record Key(String database, String user, List<String> path, String text) {
    }

    private static final class Tally {
        long calls;
        Instant first;
        Instant last;

        void add(Instant at) {
            calls++;
            if (at != null) {
                first = first == null || at.isBefore(first) ? at : first;
                last = last == null || at.isAfter(last) ? at : last;
            }
        }
    }

    private final Map<Key, Tally> tallies = new LinkedHashMap<>();
    private final Map<String, List<String>> sessionPaths = new HashMap<>();
    private long messages;
    private long statements;
    private long steps;
    private long withoutDatabase;

    @Override
    public void accept(LogEntry e) {
        messages++;
        if (!"LOG".equals(e.severity()) || e.message() == null) {
            return;   // errors repeat a statement already logged (STATEMENT:) or never ran
        }
        if (e.message().startsWith("disconnection:") || e.message().startsWith("connection authorized:")) {
            sessionPaths.remove(e.session());   // a pid may start another session
            return;
        }
        Matcher m = EXECUTED.matcher(e.message());
        if (!m.matches()) {
            return;
        }
        if (!m.group(1).equals("statement") && (!m.group(1).startsWith("execute ") || m.group(1).startsWith("execute fetch from "))) {
            steps++;
            return;
        }
        statements++;
        if (e.database() == null) {
            withoutDatabase++;
            return;
        }
        String text = withParameters(m.group(2), e.detail());
        List<String> path = e.session() == null ? null : sessionPaths.get(e.session());
        tallies.computeIfAbsent(new Key(e.database(), e.user(), path, text), k -> new Tally()).add(e.time());
        if (e.session() != null) {
            Optional<List<String>> set = SearchPathSetting.ofStatement(text);
            if (set.isPresent()) {
                sessionPaths.put(e.session(), set.get());
            } else if (RESET_PATH.matcher(text).matches()) {
                sessionPaths.remove(e.session());
            }
        }
    }

    /** The statements of {@code database}, one per text, user and session path, counted. */
    List<LoggedStatement> statements(String database) {
        List<LoggedStatement> out = new ArrayList<>();
        tallies.forEach((k, t) -> {
            if (k.database().equals(database)) {
                out.add(new LoggedStatement(k.text(), t.calls, k.user(), null, k.path(), t.first, t.last));
            }
        });
        return out;
    }

    long elsewhere(String database) {
        return tallies.entrySet().stream().filter(e -> !e.getKey().database().equals(database))
                .mapToLong(e -> e.getValue().calls).sum();
    }

    long messages() {
        return messages;
    }

    long statements() {
        return statements;
    }

    long steps() {
        return steps;
    }

    long withoutDatabase() {
        return withoutDatabase;
    }

    /**
     * The text with each {@code $n} outside strings, quoted names, comments and dollar quotes replaced by its bound
     * value as the DETAIL wrote it (a quoted literal, or NULL); a parameter without a value stays {@code $n}.
     */
    static String withParameters(String sql, String detail) {
        if (detail == null || !detail.regionMatches(true, 0, "parameters: ", 0, 12)) {   // "Parameters:" since 17
            return sql;
        }
        Map<Integer, String> values = new HashMap<>();
        Matcher p = PARAMETER.matcher(detail);
        while (p.find()) {
            values.put(Integer.parseInt(p.group(1)), p.group(2));
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            int end = skipped(sql, i);
            if (end > i) {
                out.append(sql, i, end);
                i = end;
                continue;
            }
            char ch = sql.charAt(i);
            if (ch == '$' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1))
                    && (i == 0 || !identifierPart(sql.charAt(i - 1)))) {
                int j = i + 1;
                while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                String value = values.get(Integer.parseInt(sql.substring(i + 1, j)));
                out.append(value != null ? value : sql.substring(i, j));
                i = j;
                continue;
            }
            out.append(ch);
            i++;
        }
        return out.toString();
    }

    /** The end of the string, quoted name, comment or dollar quote starting at {@code i}; {@code i} when none does. */
    private static int skipped(String sql, int i) {
        char ch = sql.charAt(i);
        if (ch == '\'' || ch == '"') {
            int j = i + 1;
            while (j < sql.length()) {
                if (sql.charAt(j) == ch) {
                    if (j + 1 < sql.length() && sql.charAt(j + 1) == ch) {
                        j += 2;
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return sql.length();
        }
        if (sql.startsWith("--", i)) {
            int nl = sql.indexOf('\n', i);
            return nl < 0 ? sql.length() : nl;
        }
        if (sql.startsWith("/*", i)) {
            int depth = 0;
            int j = i;
            while (j < sql.length()) {
                if (sql.startsWith("/*", j)) {
                    depth++;
                    j += 2;
                } else if (sql.startsWith("*/", j)) {
                    j += 2;
                    if (--depth == 0) {
                        return j;
                    }
                } else {
                    j++;
                }
            }
            return sql.length();
        }
        if (ch == '$' && (i == 0 || !identifierPart(sql.charAt(i - 1)))) {
            Matcher tag = DOLLAR_TAG.matcher(sql).region(i, sql.length());
            if (tag.lookingAt()) {
                int close = sql.indexOf(tag.group(), tag.end());
                return close < 0 ? sql.length() : close + tag.group().length();
            }
        }
        return i;
    }

    private static boolean identifierPart(char ch) {
        return Character.isLetterOrDigit(ch) || ch == '_' || ch == '$';
    }
}
