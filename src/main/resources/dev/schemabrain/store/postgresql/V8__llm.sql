-- PostgreSQL twin of migrations/V7__llm.sql.
-- LLM enrichment (SPEC §10.6): what each table was last described from, and what every call cost.
-- llm_cache.cache_key is sha256(prompt version | the table document sent); a table is asked again only
-- when that key or the model changes. The ledger keeps spend per run and model; it never holds a key.

CREATE TABLE llm_cache (
    source_id   TEXT NOT NULL,
    schema_name TEXT NOT NULL,
    table_name  TEXT NOT NULL,
    cache_key   TEXT NOT NULL,
    model       TEXT NOT NULL,
    confidence  TEXT NOT NULL,            -- medium | low
    described_at TEXT NOT NULL,
    PRIMARY KEY (source_id, schema_name, table_name)
);

CREATE TABLE llm_ledger (
    entry_id      BIGSERIAL PRIMARY KEY,
    run_started_at TEXT NOT NULL,
    source_id     TEXT NOT NULL,
    provider      TEXT NOT NULL,          -- anthropic | openai
    model         TEXT NOT NULL,
    schema_name   TEXT NOT NULL,
    table_name    TEXT NOT NULL,
    input_tokens  BIGINT NOT NULL,
    output_tokens BIGINT NOT NULL,
    usd           DOUBLE PRECISION NOT NULL
);
