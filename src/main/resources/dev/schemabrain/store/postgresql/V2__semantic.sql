-- PostgreSQL twin of migrations/V2__semantic.sql.
-- The semantic layer: entities, joins and metrics of every source in the store, one row per object.
-- definition is the object as JSON in the shape of its YAML file (SPEC §7). Inferred drafts are
-- replaced on every index run; applied and imported objects are only changed by apply/import.

CREATE TABLE semantic_objects (
    kind             TEXT NOT NULL CHECK (kind IN ('entity', 'join', 'metric')),
    name             TEXT NOT NULL,
    definition       TEXT NOT NULL,
    inference_method TEXT NOT NULL,
    validation_state TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (kind, name)
);
