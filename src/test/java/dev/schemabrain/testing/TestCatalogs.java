package dev.schemabrain.testing;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.UniqueConstraint;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.engine.sqlite.SqliteSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Hand-built catalogs and the demo database's catalog, for tests over names and joins. */
public final class TestCatalogs {

    private TestCatalogs() {
    }

    public static QualifiedName qn(String dotted) {
        int dot = dotted.indexOf('.');
        return QualifiedName.of(dotted.substring(0, dot), dotted.substring(dot + 1));
    }

    public static TableSpec table(String qualifiedName) {
        return new TableSpec(qn(qualifiedName));
    }

    /** A small fluent builder: columns are integers unless given as {@code name:type}. */
    public static final class TableSpec {
        private final QualifiedName name;
        private final List<Column> columns = new ArrayList<>();
        private final List<String> primaryKey = new ArrayList<>();
        private final List<ForeignKey> foreignKeys = new ArrayList<>();
        private final List<UniqueConstraint> uniques = new ArrayList<>();

        private TableSpec(QualifiedName name) {
            this.name = name;
        }

        public TableSpec columns(String... names) {
            for (String spec : names) {
                String[] parts = spec.split(":", 2);
                columns.add(new Column(parts[0], columns.size() + 1, parts.length > 1 ? parts[1] : "integer",
                        true, null, null, List.of()));
            }
            return this;
        }

        public TableSpec pk(String... cols) {
            primaryKey.addAll(List.of(cols));
            return this;
        }

        public TableSpec unique(String... cols) {
            uniques.add(new UniqueConstraint(name.table() + "_uq" + uniques.size(), List.of(cols)));
            return this;
        }

        /** {@code fk("fk_name", "a_id", "public.a", "id")}; several columns comma-separated. */
        public TableSpec fk(String fkName, String cols, String target, String targetCols) {
            foreignKeys.add(new ForeignKey(fkName, List.of(cols.split(",")), qn(target), List.of(targetCols.split(","))));
            return this;
        }

        public Table build() {
            return new Table(name, TableKind.TABLE, null, null, columns, primaryKey, foreignKeys, uniques, null);
        }
    }

    /**
     * Chinook's shape in schema {@code public}: artist ← album ← track → genre, track → media_type,
     * track ← playlist_track → playlist (junction), track ← invoice_line → invoice → customer →
     * employee with the self-reference employee.reports_to, and a disconnected audit_log.
     */
    public static Catalog chinook() {
        return new Catalog(List.of(
                table("public.artist").columns("artist_id", "name:text").pk("artist_id").build(),
                table("public.album").columns("album_id", "title:text", "artist_id").pk("album_id")
                        .fk("album_artist_id_fkey", "artist_id", "public.artist", "artist_id").build(),
                table("public.genre").columns("genre_id", "name:text").pk("genre_id").build(),
                table("public.media_type").columns("media_type_id", "name:text").pk("media_type_id").build(),
                table("public.track").columns("track_id", "name:text", "album_id", "media_type_id", "genre_id",
                                "composer:text", "milliseconds", "unit_price:numeric").pk("track_id")
                        .fk("track_album_id_fkey", "album_id", "public.album", "album_id")
                        .fk("track_genre_id_fkey", "genre_id", "public.genre", "genre_id")
                        .fk("track_media_type_id_fkey", "media_type_id", "public.media_type", "media_type_id").build(),
                table("public.playlist").columns("playlist_id", "name:text").pk("playlist_id").build(),
                table("public.playlist_track").columns("playlist_id", "track_id").pk("playlist_id", "track_id")
                        .fk("playlist_track_playlist_id_fkey", "playlist_id", "public.playlist", "playlist_id")
                        .fk("playlist_track_track_id_fkey", "track_id", "public.track", "track_id").build(),
                table("public.employee").columns("employee_id", "last_name:text", "first_name:text", "reports_to")
                        .pk("employee_id")
                        .fk("employee_reports_to_fkey", "reports_to", "public.employee", "employee_id").build(),
                table("public.customer").columns("customer_id", "first_name:text", "last_name:text", "email:text",
                                "support_rep_id").pk("customer_id")
                        .fk("customer_support_rep_id_fkey", "support_rep_id", "public.employee", "employee_id").build(),
                table("public.invoice").columns("invoice_id", "customer_id", "invoice_date:timestamp", "total:numeric")
                        .pk("invoice_id")
                        .fk("invoice_customer_id_fkey", "customer_id", "public.customer", "customer_id").build(),
                table("public.invoice_line").columns("invoice_line_id", "invoice_id", "track_id", "unit_price:numeric",
                                "quantity").pk("invoice_line_id")
                        .fk("invoice_line_invoice_id_fkey", "invoice_id", "public.invoice", "invoice_id")
                        .fk("invoice_line_track_id_fkey", "track_id", "public.track", "track_id").build(),
                table("public.audit_log").columns("id", "message:text").pk("id").build()));
    }

    /** Creates the demo database in {@code dir} and introspects it (schema {@code main}, no samples). */
    public static Catalog demo(Path dir) throws Exception {
        Path file = dir.resolve("demo.db");
        DemoDatabase.create(file);
        try (SqliteSource source = new SqliteSource(SourceUrl.parse("sqlite:" + file))) {
            return source.introspect(IntrospectionOptions.withoutSamples());
        }
    }
}
