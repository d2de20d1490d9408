package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;
import dev.schemabrain.sql.lex.Token;
import dev.schemabrain.sql.lex.CheckLists;
import dev.schemabrain.sql.lex.SqlSyntaxException;

import dev.schemabrain.catalog.TableKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * One CREATE TABLE statement: the head (name, {@code PARTITION OF}) and the tail ({@code PARTITION
 * BY}, {@code INHERITS}, MySQL {@code COMMENT=}) here, the column list by {@link ClauseParser}.
 * JSqlParser is not used for tables: on 295 sample statements it finds the same columns and keys,
 * but folds MySQL's {@code CHARACTER SET} into the type and is slower (docs/architecture.md, DDL
 * reading).
 */
final class CreateTableParser {

    private static final Logger LOG = LoggerFactory.getLogger(CreateTableParser.class);

    /** A parsed statement; {@code ifNotExists} keeps an earlier definition of the same name. */
    record Result(TableDraft table, boolean ifNotExists) {
    }

    private CreateTableParser() {
    }

    /** The table, or empty for statements that define none worth reading (temporary, AS SELECT, OF type). */
    static Optional<Result> parse(RawStatement statement, String defaultSchema) {
        List<Token> tokens = SqlLexer.tokenize(statement.text(), statement.backslashEscapes());
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
            throw new SqlSyntaxException("expected TABLE" + cursor.where());
        }
        boolean ifNotExists = cursor.acceptWords("IF", "NOT", "EXISTS");
        TableDraft table = new TableDraft(Names.qualify(tableName(cursor), defaultSchema), TableKind.TABLE);
        if (cursor.acceptWords("PARTITION", "OF")) {
            table.partitionOf = Names.qualify(cursor.qualifiedName(), defaultSchema);
            return Optional.of(new Result(table, ifNotExists));
        }
        if (!cursor.isSymbol("(")) {
            if (cursor.isWord("AS", "OF", "LIKE", "CLONE", "WITH", "SELECT")) {
                LOG.debug("{}: table {} has no column list; skipped", statement.line(), table.name);
                return Optional.empty();
            }
            throw new SqlSyntaxException("expected the column list" + cursor.where());
        }
        int open = cursor.position();
        int close = cursor.matchingClose(open);
        if (close < 0) {
            throw new SqlSyntaxException("the column list is not closed");
        }
        new ClauseParser(statement.text(), tokens.subList(open, close + 1), defaultSchema).parseBody(table);
        CheckLists.of(tokens.subList(open, close + 1)).forEach((column, domain) ->
                table.column(column).ifPresent(c -> c.domain = domain));
        cursor.reset(close + 1);
        readTail(cursor, defaultSchema, table);
        return Optional.of(new Result(table, ifNotExists));
    }

    /** SQLite takes a string where the name goes ({@code CREATE TABLE 'airlines'}, in Spider's flight_2). */
    private static List<String> tableName(TokenCursor cursor) {
        return !cursor.atEnd() && cursor.peek().kind() == Token.Kind.STRING ? List.of(cursor.next().value())
                : cursor.qualifiedName();
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
