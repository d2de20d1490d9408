package dev.schemabrain.sql.guard;

import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * JSqlParser's entry for the whole server. It runs each parse on an executor so that it can stop one that runs too
 * long; its one-argument entry points make and drop a thread per call, which cost an execute about 1 ms (a third
 * of its parsing) after an idle gap. One shared pool of daemon threads instead: they stay warm between calls.
 */
public final class Parsing {

    private static final ExecutorService PARSER = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "sql-guard-parse");
        thread.setDaemon(true);
        return thread;
    });

    private Parsing() {
    }

    /** One statement, within JSqlParser's time limit. */
    public static Statement statement(String sql) throws JSQLParserException {
        return CCJSqlParserUtil.parse(sql, PARSER, parser -> { });
    }

    /** Every statement of {@code sql}, within JSqlParser's time limit. */
    public static Statements statements(String sql) throws JSQLParserException {
        return CCJSqlParserUtil.parseStatements(sql, PARSER, parser -> { });
    }
}
