package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlSyntaxException;

import dev.schemabrain.catalog.Table;
import dev.schemabrain.error.SourceException;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a script's statements into catalog tables. Statements are sorted by a cheap look at their
 * first words; everything that does not shape the catalog (functions, sequences, grants, data,
 * ordinary indexes, triggers, ...) is dropped before any parser sees it, which is what lets a whole
 * pg_dump or mysqldump file through. Tables are read first, then views (whose columns may come from
 * those tables), then the statements that amend tables.
 */
final class DdlReader {

    static final Pattern CREATE_TABLE = Pattern.compile(
            "(?is)CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:(?:GLOBAL|LOCAL)\\s+)?(?:(?:TEMP|TEMPORARY|UNLOGGED)\\s+)?TABLE\\s.*");
    static final Pattern CREATE_VIEW = Pattern.compile(
            "(?is)CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:ALGORITHM\\s*=\\s*\\w+\\s+)?(?:DEFINER\\s*=\\s*\\S+\\s+)?"
                    + "(?:SQL\\s+SECURITY\\s+\\w+\\s+)?(?:(?:TEMP|TEMPORARY)\\s+)?(?:RECURSIVE\\s+)?(?:MATERIALIZED\\s+)?VIEW\\s.*");
    private static final Pattern CREATE_UNIQUE_INDEX = Pattern.compile(
            "(?is)CREATE\\s+UNIQUE\\s+(?:(?:CLUSTERED|NONCLUSTERED)\\s+)?INDEX\\s.*");
    private static final Pattern ALTER_TABLE = Pattern.compile(
            "(?is)ALTER\\s+TABLE\\s.*?\\b(?:ADD|ATTACH|SET\\s+DEFAULT|DROP\\s+DEFAULT|SET\\s+NOT\\s+NULL|DROP\\s+NOT\\s+NULL|TYPE)\\b.*");
    private static final Pattern COMMENT_ON = Pattern.compile(
            "(?is)COMMENT\\s+ON\\s+(?:TABLE|COLUMN|VIEW|MATERIALIZED\\s+VIEW|FOREIGN\\s+TABLE)\\s.*");
    private static final Pattern SET_SEARCH_PATH = Pattern.compile(
            "(?is)SET\\s+(?:SESSION\\s+|LOCAL\\s+)?search_path\\s*(?:=|TO)\\s*(.*)");
    private static final Pattern SET_CONFIG_SEARCH_PATH = Pattern.compile(
            "(?is)SELECT\\s+(?:pg_catalog\\.)?set_config\\s*\\(\\s*'search_path'\\s*,\\s*'([^']*)'.*");
    private static final int OFFENDING_TEXT_LENGTH = 60;

    private final List<RawStatement> statements;
    private final String fileName;
    private final String[] defaultSchemas;

    private DdlReader(List<RawStatement> statements, String fileName) {
        this.statements = statements;
        this.fileName = fileName;
        this.defaultSchemas = searchPaths(statements);
    }

    static List<Table> read(List<RawStatement> statements, String fileName) throws SourceException {
        return new DdlReader(statements, fileName).read();
    }

    private List<Table> read() throws SourceException {
        try (Jsql jsql = new Jsql()) {
            return read(jsql);
        }
    }

    private List<Table> read(Jsql jsql) throws SourceException {
        SchemaDraft schema = new SchemaDraft();
        int createTables = 0;
        for (int i = 0; i < statements.size(); i++) {
            RawStatement statement = statements.get(i);
            if (CREATE_TABLE.matcher(statement.text()).matches()) {
                createTables++;
                try {
                    CreateTableParser.parse(statement, defaultSchemas[i])
                            .ifPresent(result -> schema.add(result.table(), result.ifNotExists()));
                } catch (SqlSyntaxException e) {
                    throw cannotParse("CREATE TABLE", statement, e);
                }
            }
        }
        if (createTables == 0) {
            throw new SourceException("The DDL file " + fileName + " contains no CREATE TABLE statement;"
                    + " point ddl: at a schema dump such as the output of pg_dump --schema-only or mysqldump --no-data.");
        }
        schema.resolveInheritance();
        for (int i = 0; i < statements.size(); i++) {
            RawStatement statement = statements.get(i);
            if (CREATE_VIEW.matcher(statement.text()).matches()) {
                try {
                    schema.add(ViewParser.parse(statement, defaultSchemas[i], schema, jsql), false);
                } catch (SqlSyntaxException e) {
                    throw cannotParse("CREATE VIEW", statement, e);
                }
            }
        }
        for (int i = 0; i < statements.size(); i++) {
            amend(statements.get(i), defaultSchemas[i], schema);
        }
        return schema.finish();
    }

    private void amend(RawStatement statement, String defaultSchema, SchemaDraft schema) throws SourceException {
        String text = statement.text();
        String kind = null;
        try {
            if (ALTER_TABLE.matcher(text).matches()) {
                kind = "ALTER TABLE";
                AlterTableParser.apply(statement, defaultSchema, schema);
            } else if (COMMENT_ON.matcher(text).matches()) {
                kind = "COMMENT ON";
                CommentOnParser.apply(statement, defaultSchema, schema);
            } else if (CREATE_UNIQUE_INDEX.matcher(text).matches()) {
                kind = "CREATE UNIQUE INDEX";
                UniqueIndexParser.apply(statement, defaultSchema, schema);
            }
        } catch (SqlSyntaxException e) {
            throw cannotParse(kind, statement, e);
        }
    }

    /** The schema unqualified names fall into at each statement: public, unless search_path says otherwise. */
    static String[] searchPaths(List<RawStatement> statements) {
        String[] schemas = new String[statements.size()];
        String current = "public";
        for (int i = 0; i < statements.size(); i++) {
            String text = statements.get(i).text();
            Matcher set = SET_SEARCH_PATH.matcher(text);
            Matcher config = SET_CONFIG_SEARCH_PATH.matcher(text);
            if (set.matches()) {
                current = firstSchema(set.group(1));
            } else if (config.matches()) {
                current = firstSchema(config.group(1));
            }
            schemas[i] = current;
        }
        return schemas;
    }

    private static String firstSchema(String searchPath) {
        for (String entry : searchPath.split(",")) {
            String name = Names.unquote(entry.strip().replaceAll("^'|'$", ""));
            if (!name.isEmpty() && !name.equalsIgnoreCase("DEFAULT") && !name.equals("$user")
                    && !name.equalsIgnoreCase("pg_catalog")) {
                return name;
            }
        }
        return "public";
    }

    private SourceException cannotParse(String kind, RawStatement statement, SqlSyntaxException e) {
        String flat = statement.text().replaceAll("\\s+", " ");
        String offending = flat.length() <= OFFENDING_TEXT_LENGTH ? flat : flat.substring(0, OFFENDING_TEXT_LENGTH) + "…";
        return new SourceException("Cannot parse the " + kind + " statement at line " + statement.line() + " of "
                + fileName + " (" + e.getMessage() + "); fix the statement or remove it (offending text: " + offending + ").");
    }
}
