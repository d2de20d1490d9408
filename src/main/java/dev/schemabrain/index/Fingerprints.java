package dev.schemabrain.index;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.UniqueConstraint;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Content-addressed fingerprints. The structural hash covers what the database declares;
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
        // Per-table context computed once, not once per column.
        String siblings = String.join(",", table.columns().stream().map(Column::name).sorted().toList());
        String junction = Boolean.toString(table.isJunction());
        String tableName = table.name().toString();
        String tableComment = nullable(table.comment());
        Map<String, List<String>> fkTargets = fkTargetsByColumn(table);
        for (Column column : table.columns()) {
            String structural = columnStructural(table, column, fkTargets.getOrDefault(column.name(), List.of()));
            String semantic = sha256(structural, String.join(",", column.samples()), tableName,
                    tableComment, nullable(column.comment()), junction, siblings, DESCRIBER_VERSION);
            // Indexed values count only when present, so a column without them keeps its earlier fingerprint;
            // a moved value set then rewrites the column's row (its stored values) like a moved sample.
            if (!column.values().isEmpty()) {
                semantic = sha256(semantic, "values", String.join("\u0000", column.values()));
            }
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

    private static Map<String, List<String>> fkTargetsByColumn(Table table) {
        Map<String, List<String>> targets = new HashMap<>();
        for (var fk : table.foreignKeys()) {
            for (int i = 0; i < fk.columns().size(); i++) {
                targets.computeIfAbsent(fk.columns().get(i), k -> new ArrayList<>())
                        .add(fk.target() + "." + fk.targetColumns().get(i));
            }
        }
        targets.values().forEach(Collections::sort);
        return targets;
    }

    private static String columnStructural(Table table, Column column, List<String> fkTargets) {
        String structural = sha256(column.name(), column.dataType(), Boolean.toString(column.nullable()),
                nullable(column.defaultValue()), Integer.toString(column.position()),
                Boolean.toString(table.isPrimaryKey(column.name())), String.join(",", fkTargets));
        // A domain counts only when present, so an open column keeps its earlier fingerprint; a label added to
        // an ENUM (ALTER TYPE … ADD VALUE leaves the type's name as it was) is a structural change.
        Domain d = column.domain();
        return d == null ? structural : sha256(structural, "domain", d.kind().wireName(), nullable(d.typeName()),
                String.join("\u0000", d.values()));
    }

    private static String describe(ForeignKey fk) {
        return "fk:" + String.join(",", fk.columns()) + "->" + fk.target() + "(" + String.join(",", fk.targetColumns()) + ")";
    }

    private static String nullable(String value) {
        return value == null ? "\u0000null" : value;
    }

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** SHA-256 over length-prefixed parts, so no two different part lists can collide by concatenation. */
    public static String sha256(String... parts) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        for (String part : parts) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            digest.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
            digest.update(bytes);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
