package dev.schemabrain.sql.guard;

import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.SourceKind;

/** The four engines whose SQL rules the guard's tests run under, each the engine's own (Engine.sqlRules). */
enum TestEngine {
    POSTGRESQL(SourceKind.POSTGRESQL), MYSQL(SourceKind.MYSQL), SQLITE(SourceKind.SQLITE), DUCKDB(new SourceKind("duckdb"));

    private final SourceKind kind;

    TestEngine(SourceKind kind) {
        this.kind = kind;
    }

    SqlRules rules() {
        return Engines.of(kind).orElseThrow().sqlRules().orElseThrow();
    }
}
