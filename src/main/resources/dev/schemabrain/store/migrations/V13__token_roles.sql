-- Callers and roles (SPEC §11.4): the role and claims a token's bearer gets under an access policy. Not
-- secrets (token list shows them); NULL role: the policy's default_role applies.
ALTER TABLE auth_tokens ADD COLUMN role TEXT;
ALTER TABLE auth_tokens ADD COLUMN claims TEXT NOT NULL DEFAULT '{}';   -- JSON object of string values
-- The audit chain's role columns are in the audit file beside the store (dev/schemabrain/audit/audit.sql).
