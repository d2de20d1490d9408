package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.TableKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * One CREATE TABLE statement. The head (name, {@code PARTITION OF}) and the tail ({@code PARTITION
 * BY}, {@code INHERITS}, MySQL {@code COMMENT=}) are read here, since JSqlParser 5.0 rejects several
 * of those clauses; the column list goes to JSqlParser, with {@link ClauseParser} as the fallback
 * and as the source of spellings JSqlParser re-renders (types, default expressions).
 */
final class CreateTableParser {

    private static final Logger LOG = LoggerFactory.getLogger(CreateTableParser.class);

    /** A parsed statement; {@code ifNotExists} keeps an earlier definition of the same name. */
    record Result(TableDraft table, boolean ifNotExists) {
    }

    private CreateTableParser() {
    }

    /** The table, or empty for statements that define none worth reading (temporary, AS SELECT, OF type). */
    static Optional<Result> parse(RawStatement statement, String defaultSchema, Jsql jsql) {
        List<Token> tokens = SqlLexer.tokenize(statement);
        TokenCursor cursor = new TokenCursor(tokens);
        cursor.acceptWords("CREATE");
        cursor.acceptWords("OR", "REPLACE");
        if (!cursor.acceptWords("GLOBAL")) {
            cursor.acceptWords("LOCAL");
        }
        if (cursor.acceptWords("TEMP") || cursor.acceptWords("TEMPORARY")) {
            return Optional.empty();
        }
        cursor.acceptWords("UNLOGGED");
        if (!cursor.acceptWords("TABLE")) {
            throw new DdlSyntaxException("expected TABLE" + cursor.where());
        }
        boolean ifNotExists = cursor.acceptWords("IF", "NOT", "EXISTS");
        int nameStart = cursor.position();
        TableDraft table = new TableDraft(Names.qualify(cursor.qualifiedName(), defaultSchema), TableKind.TABLE);
        Token nameEnd = cursor.get(cursor.position() - 1);
        if (cursor.acceptWords("PARTITION", "OF")) {
            table.partitionOf = Names.qualify(cursor.qualifiedName(), defaultSchema);
            return Optional.of(new Result(table, ifNotExists));
        }
        if (!cursor.isSymbol("(")) {
            if (cursor.isWord("AS", "OF", "LIKE", "CLONE", "WITH", "SELECT")) {
                LOG.debug("{}: table {} has no column list; skipped", statement.line(), table.name);
                return Optional.empty();
            }
            throw new DdlSyntaxException("expected the column list" + cursor.where());
        }
        int open = cursor.position();
        int close = cursor.matchingClose(open);
        if (close < 0) {
            throw new DdlSyntaxException("the column list is not closed");
        }
        readBody(jsql, statement, defaultSchema, table, cursor.get(nameStart), nameEnd, open, close, tokens);
        cursor.reset(close + 1);
        readTail(cursor, defaultSchema, table);
        return Optional.of(new Result(table, ifNotExists));
    }

    private static void readBody(Jsql jsql, RawStatement statement, String defaultSchema, TableDraft table,
                                 Token nameStart, Token nameEnd, int open, int close, List<Token> tokens) {
        String sql = statement.text();
        TableDraft light = new TableDraft(table.name, table.kind);
        DdlSyntaxException lightError = null;
        try {
            ClauseParser parser = new ClauseParser(sql, tokens.subList(open, close + 1), defaultSchema);
            parser.parseBody(light);
        } catch (DdlSyntaxException e) {
            lightError = e;
        }
        String core = "CREATE TABLE " + sql.substring(nameStart.start(), nameEnd.end()) + " "
                + sql.substring(tokens.get(open).start(), tokens.get(close).end());
        TableDraft parsed = new TableDraft(table.name, table.kind);
        if (JsqlTableReader.read(jsql, core, statement.backslashEscapes(), defaultSchema, parsed)) {
            if (lightError == null) {
                preferWrittenSpelling(parsed, light);
            }
            copyBody(parsed, table);
        } else if (lightError == null) {
            copyBody(light, table);
        } else {
            throw lightError;
        }
    }

    /** JSqlParser re-renders defaults ({@code NextVal( ...)}, {@code now ()}); keep the text as written. */
    private static void preferWrittenSpelling(TableDraft parsed, TableDraft light) {
        for (ColumnDraft column : parsed.columns) {
            light.column(column.name).ifPresent(written -> {
                column.dataType = written.dataType;
                column.defaultValue = written.defaultValue;
                column.comment = written.comment;
            });
        }
    }

    private static void copyBody(TableDraft from, TableDraft to) {
        to.columns.addAll(from.columns);
        to.primaryKey.addAll(from.primaryKey);
        to.foreignKeys.addAll(from.foreignKeys);
        to.uniqueConstraints.addAll(from.uniqueConstraints);
    }

    /** Options after the column list; only partitioning, inheritance and a MySQL comment matter. */
    private static void readTail(TokenCursor cursor, String defaultSchema, TableDraft table) {
        while (!cursor.atEnd()) {
            if (cursor.acceptWords("PARTITION", "BY")) {
                table.kind = TableKind.PARTITIONED;
            } else if (cursor.acceptWords("INHERITS")) {
                cursor.expectSymbol("(");
                do {
                    table.inheritsFrom.add(Names.qualify(cursor.qualifiedName(), defaultSchema));
                } while (cursor.acceptSymbol(","));
                cursor.expectSymbol(")");
            } else if (cursor.acceptWords("COMMENT")) {
                cursor.acceptSymbol("=");
                if (!cursor.atEnd() && cursor.peek().kind() == Token.Kind.STRING) {
                    table.comment = cursor.next().value();
                }
            } else if (cursor.isSymbol("(")) {
                cursor.skipParenthesized();
            } else {
                cursor.next();
            }
        }
    }
}
