package dev.schemabrain.source;

import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.files.Csv;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A data dictionary: one CSV file per table ({@code <table>.csv}, the name matched case-insensitively) with the
 * columns {@code original_column_name, column_name, column_description, value_description}. Each row becomes the
 * comment of its column (a database's own comment stays first). Read from {@code index --dictionary DIR} and from a
 * Spider layout's {@code database/<db_id>/database_description/}. The text only describes: control characters are
 * dropped, each field is cut at {@value #MAX_FIELD} characters and a file above {@value #MAX_FILE} bytes is refused.
 */
public final class Dictionary {

    static final int MAX_FIELD = 400;
    static final long MAX_FILE = 1_000_000;

    /** Lower-case table name → lower-case column name → the comment text. */
    private final Map<String, Map<String, String>> comments;

    private Dictionary(Map<String, Map<String, String>> comments) {
        this.comments = comments;
    }

    public static Dictionary none() {
        return new Dictionary(Map.of());
    }

    /** Reads every {@code *.csv} of {@code dir}. */
    public static Dictionary read(Path dir) throws SourceException {
        if (!Files.isDirectory(dir)) {
            throw new SourceException("The dictionary folder " + dir + " does not exist or is not a folder;"
                    + " give a folder of <table>.csv files.");
        }
        Map<String, Map<String, String>> all = new HashMap<>();
        List<Path> files;
        try (Stream<Path> listing = Files.list(dir)) {
            files = listing.filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv")).sorted().toList();
        } catch (IOException e) {
            throw new SourceException("Cannot list the dictionary folder " + dir + "; check that it is readable.", e);
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            all.put(name.substring(0, name.length() - 4).strip().toLowerCase(Locale.ROOT), readFile(file));
        }
        return new Dictionary(all);
    }

    public boolean isEmpty() {
        return comments.isEmpty();
    }

    /**
     * {@code source} with this dictionary's comments laid over its catalog. Its change token covers the dictionary
     * too, so editing a file makes the next run a full one.
     */
    public SchemaSource over(SchemaSource source) {
        Dictionary dictionary = this;
        String digest = digest();
        return new SchemaSource() {
            @Override
            public SourceKind kind() {
                return source.kind();
            }

            @Override
            public Catalog introspect(IntrospectionOptions options) throws SourceException {
                return dictionary.apply(source.introspect(options));
            }

            @Override
            public Optional<String> catalogToken() throws SourceException {
                return source.catalogToken().map(t -> t + "|dictionary:" + digest);
            }

            @Override
            public Optional<String> unreadKeys() {
                return source.unreadKeys();
            }

            @Override
            public void close() {
                source.close();
            }
        };
    }

    /** The catalog with each described column's comment set (its own comment kept first). */
    public Catalog apply(Catalog catalog) {
        return comments.isEmpty() ? catalog : new Catalog(catalog.tables().stream().map(this::apply).toList());
    }

    public Table apply(Table table) {
        Map<String, String> columns = comments.get(table.name().table().toLowerCase(Locale.ROOT));
        if (columns == null) {
            return table;
        }
        return table.withColumns(table.columns().stream().map(c -> {
            String text = columns.get(c.name().toLowerCase(Locale.ROOT));
            return text == null ? c : c.withComment(merge(c.comment(), text));
        }).toList());
    }

    /** SHA-256 of every table's comments in name order. */
    private String digest() {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            new TreeMap<>(comments).forEach((table, columns) -> {
                sha.update((table + "\u0000" + new TreeMap<>(columns) + "\u0000").getBytes(StandardCharsets.UTF_8));
            });
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** Joins an existing comment and more text, without repeating what is already there. */
    public static String merge(String comment, String more) {
        if (comment == null || comment.isBlank()) {
            return more;
        }
        return comment.toLowerCase(Locale.ROOT).contains(more.toLowerCase(Locale.ROOT)) ? comment : comment + ". " + more;
    }

    private static Map<String, String> readFile(Path file) throws SourceException {
        String text;
        try {
            if (Files.size(file) > MAX_FILE) {
                throw new SourceException("The dictionary file " + file + " is larger than " + MAX_FILE
                        + " bytes; a data dictionary is one row per column, so check that this is the right file.");
            }
            text = decode(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new SourceException("Cannot read the dictionary file " + file + "; check that it is readable.", e);
        }
        List<List<String>> rows = Csv.parse(text);
        if (rows.isEmpty()) {
            return Map.of();
        }
        List<String> header = rows.get(0).stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
        int original = header.indexOf("original_column_name");
        if (original < 0) {
            throw new SourceException("The dictionary file " + file + " has no original_column_name column;"
                    + " give the header original_column_name, column_name, column_description, value_description.");
        }
        int readable = header.indexOf("column_name");
        int description = header.indexOf("column_description");
        int values = header.indexOf("value_description");
        Map<String, String> out = new HashMap<>();
        for (List<String> row : rows.subList(1, rows.size())) {
            String column = field(row, original);
            if (column.isEmpty()) {
                continue;
            }
            List<String> parts = new ArrayList<>();
            String name = field(row, readable);
            if (!name.isEmpty() && !name.equalsIgnoreCase(column)) {
                parts.add(name);
            }
            String about = field(row, description);
            if (!about.isEmpty() && !about.equalsIgnoreCase(name)) {
                parts.add(about);
            }
            String valueText = field(row, values);
            if (!valueText.isEmpty()) {
                parts.add(valueText);
            }
            if (!parts.isEmpty()) {
                out.put(column.toLowerCase(Locale.ROOT), String.join(". ", parts));
            }
        }
        return out;
    }

    /** A field, with control characters and runs of blanks made one space, cut to {@value #MAX_FIELD} characters. */
    private static String field(List<String> row, int index) {
        if (index < 0 || index >= row.size()) {
            return "";
        }
        String value = row.get(index).replaceAll("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\s]+", " ").strip();
        return value.length() <= MAX_FIELD ? value : value.substring(0, MAX_FIELD);
    }

    /** UTF-8 (a byte-order mark dropped), or Latin-1 when the bytes are not UTF-8. */
    private static String decode(byte[] bytes) {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
            return s.startsWith("\uFEFF") ? s.substring(1) : s;
        } catch (CharacterCodingException e) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }
}
