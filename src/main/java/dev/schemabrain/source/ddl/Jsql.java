package dev.schemabrain.source.ddl;

import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * JSqlParser for one script; it reads view queries (their column names and types), not tables.
 * JSqlParser runs each parse on an executor so it can enforce its time-out; its one-argument
 * {@code parse} makes a new thread per statement, which costs more than the parse itself, so one
 * script shares one thread.
 */
final class Jsql implements AutoCloseable {

    private final ExecutorService executor = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "schemabrain-jsqlparser");
        thread.setDaemon(true);
        return thread;
    });

    Statement parse(String sql) throws JSQLParserException {
        return CCJSqlParserUtil.parse(sql, executor, parser -> { });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** The first line of a JSqlParser message, which goes on to list every token it expected. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
