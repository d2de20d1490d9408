package dev.schemabrain.engine;

import java.util.Locale;

/**
 * What a source is: a registered {@link Engine}'s kind, named by the engine itself, or one of the files read offline
 * (ddl, spider), which have none ({@link Engines#of} is empty for them).
 *
 * @param wireName the kind as URLs and the store write it, lower case
 */
public record SourceKind(String wireName) {

    public static final SourceKind POSTGRESQL = new SourceKind("postgresql");
    public static final SourceKind MYSQL = new SourceKind("mysql");
    public static final SourceKind SQLITE = new SourceKind("sqlite");
    public static final SourceKind DDL = new SourceKind("ddl");
    public static final SourceKind SPIDER = new SourceKind("spider");

    public SourceKind {
        if (wireName == null || !wireName.matches("[a-z][a-z0-9]*")) {
            throw new IllegalArgumentException("a source kind is a lower-case word: " + wireName);
        }
    }

    /** The kind in capitals, as messages and logs have always spelled it. */
    public String name() {
        return wireName.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return name();
    }
}
