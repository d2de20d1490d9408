package dev.schemabrain.engine;

import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The engines, one each, as registered in {@code META-INF/services/dev.schemabrain.engine.Engine}; they hold no
 * state, so one instance serves every source.
 */
public final class Engines {

    private static final List<Engine> ALL = ServiceLoader.load(Engine.class, Engines.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get).toList();

    public static final Engine POSTGRESQL = require(SourceKind.POSTGRESQL);
    public static final Engine MYSQL = require(SourceKind.MYSQL);
    public static final Engine SQLITE = require(SourceKind.SQLITE);

    private Engines() {
    }

    /** Every registered engine, in registration order. */
    public static List<Engine> all() {
        return ALL;
    }

    /** The engine of a live source; empty for the offline kinds (ddl, spider). */
    public static Optional<Engine> of(SourceKind kind) {
        return ALL.stream().filter(e -> e.kind().equals(kind)).findFirst();
    }

    /** The engine reading URLs of {@code scheme} (lower case), if any. */
    public static Optional<Engine> forScheme(String scheme) {
        return ALL.stream().filter(e -> e.schemes().contains(scheme)).findFirst();
    }

    /** Every engine's URL forms as help writes them: {@code postgresql://, …, sqlite:FILE}. */
    public static List<String> urlForms() {
        return ALL.stream().flatMap(e -> e.schemes().stream().map(e::shownScheme).distinct()
                .map(s -> e.fileBased() ? s + ":FILE" : s + "://")).toList();
    }

    private static Engine require(SourceKind kind) {
        return of(kind).orElseThrow(() -> new IllegalStateException("no engine registered for " + kind));
    }
}
