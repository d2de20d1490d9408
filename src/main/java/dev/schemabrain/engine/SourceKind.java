package dev.schemabrain.engine;

/** The engines SchemaBrain reads. Live sources can also run the metric executor; offline ones cannot. */
public enum SourceKind {
    POSTGRESQL(true), MYSQL(true), SQLITE(true), DDL(false), SPIDER(false);

    private final boolean live;

    SourceKind(boolean live) {
        this.live = live;
    }

    public boolean live() {
        return live;
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
