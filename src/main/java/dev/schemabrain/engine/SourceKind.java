package dev.schemabrain.engine;

/** The sources SchemaBrain reads. The live ones have an {@link Engine} ({@link Engines#of}); ddl and spider are files only. */
public enum SourceKind {
    POSTGRESQL, MYSQL, SQLITE, DUCKDB, DDL, SPIDER;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
