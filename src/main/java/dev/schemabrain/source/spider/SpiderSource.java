package dev.schemabrain.source.spider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.source.Dictionary;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A Spider-format {@code tables.json}: every entry's {@code db_id} becomes one schema with its
 * tables, columns, types, primary keys and foreign keys. Each foreign-key pair is one single-column
 * foreign key (Spider lists composite keys as several pairs, which stay joinable column by column). The readable
 * names become comments where they differ from the identifiers; when Spider's layout sits beside the file
 * ({@code database/<db_id>/<db_id>.sqlite}, {@code database/<db_id>/database_description/<table>.csv}) samples and
 * values are read from the database and the dictionary becomes column comments.
 */
public final class SpiderSource implements SchemaSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path path;

    public SpiderSource(SourceUrl url) {
        this.path = url.path();
    }

    @Override
    public SourceKind kind() {
        return SourceKind.SPIDER;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(path));
        } catch (NoSuchFileException e) {
            throw new SourceException("The Spider file " + path + " does not exist; check the path after spider:.", e);
        } catch (JsonProcessingException e) {
            throw new SourceException("The Spider file " + path + " is not valid JSON (line "
                    + e.getLocation().getLineNr() + "); give a Spider tables.json file.", e);
        } catch (IOException e) {
            throw new SourceException("Cannot read the Spider file " + path + "; check that it is a readable file.", e);
        }
        if (root == null || !root.isArray()) {
            throw wrongShape("the top level is not a list of databases");
        }
        List<Table> tables = new ArrayList<>();
        for (JsonNode db : root) {
            String schema = text(db, "db_id");
            Path folder = databaseFolder(schema);
            List<Table> read = database(db);
            Dictionary dictionary = folder != null && Files.isDirectory(folder.resolve("database_description"))
                    ? Dictionary.read(folder.resolve("database_description")) : Dictionary.none();
            read = read.stream().map(dictionary::apply).toList();
            Path data = folder == null ? null : folder.resolve(schema + ".sqlite");
            tables.addAll(data != null && Files.isRegularFile(data) ? SpiderData.sample(data, read, options) : read);
        }
        return new Catalog(tables);
    }

    /**
     * Spider's own layout beside the tables file, {@code database/<db_id>/}, when it is there: the database
     * ({@code <db_id>.sqlite}) gives samples and values, {@code database_description/} the dictionary.
     */
    private Path databaseFolder(String dbId) {
        Path parent = path.toAbsolutePath().getParent();
        if (parent == null || dbId.contains("/") || dbId.contains("\\") || dbId.equals("..") || dbId.equals(".")) {
            return null;
        }
        Path folder = parent.resolve("database").resolve(dbId);
        return Files.isDirectory(folder) ? folder : null;
    }

    private List<Table> database(JsonNode db) throws SourceException {
        String schema = text(db, "db_id");
        JsonNode tableNames = array(db, "table_names_original");
        JsonNode columnNames = array(db, "column_names_original");
        JsonNode readableTables = db.path("table_names");
        JsonNode readableColumns = db.path("column_names");
        JsonNode columnTypes = array(db, "column_types");
        if (columnTypes.size() != columnNames.size()) {
            throw wrongShape("database '" + schema + "' has " + columnNames.size() + " columns but "
                    + columnTypes.size() + " column types");
        }
        // Column index → (table index, name); index 0 is the "*" pseudo-column.
        int[] owner = new int[columnNames.size()];
        String[] name = new String[columnNames.size()];
        for (int i = 0; i < columnNames.size(); i++) {
            JsonNode pair = columnNames.get(i);
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isInt()) {
                throw wrongShape("database '" + schema + "' has a malformed column entry at index " + i);
            }
            owner[i] = pair.get(0).asInt();
            name[i] = pair.get(1).asText();
            if (owner[i] >= tableNames.size()) {
                throw wrongShape("database '" + schema + "' has a column of table " + owner[i] + ", which does not exist");
            }
        }
        Set<Integer> primary = new HashSet<>();
        for (JsonNode pk : array(db, "primary_keys")) {
            if (pk.isArray()) {
                pk.forEach(p -> primary.add(p.asInt()));
            } else {
                primary.add(pk.asInt());
            }
        }
        List<Table> tables = new ArrayList<>();
        for (int t = 0; t < tableNames.size(); t++) {
            QualifiedName table = QualifiedName.of(schema, tableNames.get(t).asText());
            List<Column> columns = new ArrayList<>();
            List<String> primaryKey = new ArrayList<>();
            List<ForeignKey> foreignKeys = new ArrayList<>();
            for (int i = 0; i < name.length; i++) {
                if (owner[i] != t) {
                    continue;
                }
                boolean pk = primary.contains(i);
                columns.add(new Column(name[i], columns.size() + 1, columnTypes.get(i).asText(), !pk, null,
                        readable(name[i], readableColumns.path(i).path(1)), List.of()));
                if (pk) {
                    primaryKey.add(name[i]);
                }
            }
            for (JsonNode fk : array(db, "foreign_keys")) {
                if (!fk.isArray() || fk.size() != 2) {
                    throw wrongShape("database '" + schema + "' has a foreign key that is not a [column, column] pair");
                }
                int from = fk.get(0).asInt();
                int to = fk.get(1).asInt();
                if (from <= 0 || to <= 0 || from >= name.length || to >= name.length) {
                    throw wrongShape("database '" + schema + "' has a foreign key naming a column that does not exist");
                }
                ForeignKey candidate = new ForeignKey("fk_" + table.table() + "_" + name[from], List.of(name[from]),
                        QualifiedName.of(schema, tableNames.get(owner[to]).asText()), List.of(name[to]));
                // Some files list the same pair twice; one key is enough.
                if (owner[from] == t && foreignKeys.stream().noneMatch(candidate::sameShape)) {
                    foreignKeys.add(candidate);
                }
            }
            tables.add(new Table(table, TableKind.TABLE, null, readable(table.table(), readableTables.path(t)), columns,
                    primaryKey, foreignKeys, List.of(), null));
        }
        return tables;
    }

    /**
     * Spider's readable name ({@code table_names}, {@code column_names}) as the comment, when it says more than the
     * identifier: "customer id" for {@code cust_id}, not "stadium id" for {@code stadium_id}.
     */
    static String readable(String identifier, JsonNode readable) {
        if (!readable.isTextual() || readable.asText().isBlank()) {
            return null;
        }
        String words = readable.asText().strip();
        return letters(words).equals(letters(identifier)) ? null : words;
    }

    private static String letters(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "");
    }

    private JsonNode array(JsonNode db, String field) throws SourceException {
        JsonNode node = db.get(field);
        if (node == null || !node.isArray()) {
            throw wrongShape("an entry has no '" + field + "' list");
        }
        return node;
    }

    private String text(JsonNode db, String field) throws SourceException {
        JsonNode node = db.get(field);
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            throw wrongShape("an entry has no '" + field + "'");
        }
        return node.asText();
    }

    private SourceException wrongShape(String detail) {
        return new SourceException("The Spider file " + path + " is not in Spider's tables.json format (" + detail
                + "); give a file with db_id, table_names_original, column_names_original, column_types,"
                + " primary_keys and foreign_keys per database.");
    }
}
