-- PostgreSQL twin of migrations/V9__llm_provenance.sql.
-- LLM provenance in answers (SPEC §10.6): the model id the endpoint said answered (e.g. a dated
-- claude-haiku-4-5-20251001, or what an Ollama tag resolved to), cleaned and bounded at index time.
-- llm_cache.model stays the model asked for, which is what the cache compares; rows described before
-- this migration have none and answers fall back to llm_cache.model.

ALTER TABLE llm_cache ADD COLUMN answered_model TEXT;
