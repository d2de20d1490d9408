package dev.schemabrain.engine.postgres.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.function.Consumer;

/** jsonlog (PostgreSQL 15+): one JSON object per line, keys timestamp, user, dbname, pid, session_id, error_severity, message, detail. */
final class JsonLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonLog() {
    }

    static boolean looksLike(String line) {
        return line.startsWith("{") && line.contains("\"error_severity\"");
    }

    /** Reads every line; returns how many were not jsonlog objects. */
    static int read(BufferedReader in, Consumer<LogEntry> out) throws IOException {
        int foreign = 0;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                foreign++;
                continue;
            }
            if (!n.isObject() || !n.has("error_severity") || !n.has("message")) {
                foreign++;
                continue;
            }
            String session = text(n, "session_id") != null ? text(n, "session_id") : text(n, "pid");
            out.accept(new LogEntry(LogTime.parse(text(n, "timestamp")), session, text(n, "user"), text(n, "dbname"),
                    text(n, "error_severity"), text(n, "message"), text(n, "detail")));
        }
        return foreign;
    }

    private static String text(JsonNode n, String key) {
        JsonNode v = n.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }
}
