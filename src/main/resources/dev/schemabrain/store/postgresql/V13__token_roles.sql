-- PostgreSQL twin of migrations/V13__token_roles.sql.
-- Callers and roles (SPEC §11.4): the role and claims a token's bearer gets under an access policy. Not
-- secrets (token list shows them); NULL role: the policy's default_role applies.
ALTER TABLE auth_tokens ADD COLUMN role TEXT;
ALTER TABLE auth_tokens ADD COLUMN claims TEXT NOT NULL DEFAULT '{}';   -- JSON object of string values

-- The audit chain's role columns (as audit.sql's ALTERs for a SQLite audit file): the caller's role and the
-- row filters its statement carried, hashed only when set, so rows written before stay verifiable.
ALTER TABLE audit_log ADD COLUMN role TEXT;
ALTER TABLE audit_log ADD COLUMN row_filters TEXT;
