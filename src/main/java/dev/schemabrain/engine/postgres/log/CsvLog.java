package dev.schemabrain.engine.postgres.log;

import dev.schemabrain.files.Csv;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * csvlog: one CSV record per message (a quoted field may span lines). Columns, as every server since 9.0 writes
 * them: log_time, user_name, database_name, process_id, connection_from, session_id, session_line_num, command_tag,
 * session_start_time, virtual_transaction_id, transaction_id, error_severity, sql_state_code, message, detail, …
 */
final class CsvLog {

    private static final int TIME = 0;
    private static final int USER = 1;
    private static final int DATABASE = 2;
    private static final int PID = 3;
    private static final int SESSION = 5;
    private static final int SEVERITY = 11;
    private static final int MESSAGE = 13;
    private static final int DETAIL = 14;

    private CsvLog() {
    }

    /** Whether a first line looks like csvlog: a timestamp, then a comma. */
    static boolean looksLike(String line) {
        return line.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)?( \\S+)?,.*");
    }

    /** Reads every record; returns how many were not csvlog records. */
    static int read(BufferedReader in, Consumer<LogEntry> out) throws IOException {
        int foreign = 0;
        StringBuilder record = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (!record.isEmpty()) {
                record.append('\n');
            }
            record.append(line);
            if (quotes(record) % 2 != 0) {
                continue;   // a quoted field goes on on the next line
            }
            List<List<String>> rows = Csv.parse(record.toString());
            record.setLength(0);
            List<String> f = rows.isEmpty() ? List.of() : rows.get(0);
            if (f.size() <= DETAIL || LogTime.parse(f.get(TIME)) == null) {
                foreign++;
                continue;
            }
            String session = !f.get(SESSION).isEmpty() ? f.get(SESSION) : f.get(PID);
            out.accept(new LogEntry(LogTime.parse(f.get(TIME)), session, blank(f.get(USER)), blank(f.get(DATABASE)),
                    f.get(SEVERITY), f.get(MESSAGE), blank(f.get(DETAIL))));
        }
        return foreign + (record.isEmpty() ? 0 : 1);
    }

    private static String blank(String s) {
        return s.isEmpty() ? null : s;
    }

    private static long quotes(CharSequence s) {
        return s.chars().filter(c -> c == '"').count();
    }
}
