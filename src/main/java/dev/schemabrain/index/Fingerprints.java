package dev.schemabrain.index;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.UniqueConstraint;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Content-addressed fingerprints (SPEC §3). The structural hash covers what the database declares;
 * the semantic hash adds what a description is written from (samples, comments, sibling context)
 * and the describer's version, so changing the describer invalidates every description.
 */
public final class Fingerprints {

    /** Bump when what descriptions are made from changes. */
    public static final String DESCRIBER_VERSION = "offline-1";

    private Fingerprints() {
    }

    public record Hashes(String structural, String semantic) {
    }

    /** The hashes of a table and of each of its columns (keyed by column name, in column order). */
    public record TableHashes(Hashes table, Map<String, Hashes> columns) {
    }

    public static TableHashes of(Table table) {
        Map<String, Hashes> columns = new LinkedHashMap<>();
        List<String> siblings = table.columns().stream().map(Column::name).sorted().toList();
        for (Column column : table.columns()) {
            String structural = columnStructural(table, column);
            String semantic = sha256(structural, String.join(",", column.samples()), table.name().toString(),
                    nullable(table.comment()), nullable(column.comment()), Boolean.toString(table.isJunction()),
                    String.join(",", siblings), DESCRIBER_VERSION);
            columns.put(column.name(), new Hashes(structural, semantic));
        }
        List<String> parts = new ArrayList<>();
        parts.add(table.kind().wireName());
        parts.add(String.join(",", table.primaryKey()));
        columns.values().stream().map(Hashes::structural).sorted().forEach(parts::add);
        table.foreignKeys().stream().map(Fingerprints::describe).sorted().forEach(parts::add);
        table.uniqueConstraints().stream().map(UniqueConstraint::columns)
                .map(c -> "unique:" + String.join(",", c)).sorted().forEach(parts::add);
        String structural = sha256(parts.toArray(String[]::new));
        List<String> semanticParts = new ArrayList<>(List.of(structural, nullable(table.comment()), DESCRIBER_VERSION));
        columns.values().stream().map(Hashes::semantic).sorted().forEach(semanticParts::add);
        return new TableHashes(new Hashes(structural, sha256(semanticParts.toArray(String[]::new))), columns);
    }

    private static String columnStructural(Table table, Column column) {
        List<String> fkTargets = table.foreignKeys().stream()
                .filter(fk -> fk.columns().contains(column.name()))
                .map(fk -> fk.target() + "." + fk.targetColumns().get(fk.columns().indexOf(column.name())))
                .sorted().toList();
        return sha256(column.name(), column.dataType(), Boolean.toString(column.nullable()),
                nullable(column.defaultValue()), Integer.toString(column.position()),
                Boolean.toString(table.isPrimaryKey(column.name())), String.join(",", fkTargets));
    }

    private static String describe(ForeignKey fk) {
        return "fk:" + String.join(",", fk.columns()) + "->" + fk.target() + "(" + String.join(",", fk.targetColumns()) + ")";
    }

    private static String nullable(String value) {
        return value == null ? "\u0000null" : value;
    }

    /** SHA-256 over length-prefixed parts, so no two different part lists can collide by concatenation. */
    static String sha256(String... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String part : parts) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
                digest.update(bytes);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
