-- PostgreSQL twin of migrations/V5__auth_tokens.sql.
-- Bearer tokens for the HTTP service (SPEC §10.2). Only each token's SHA-256 is kept: the token itself
-- is printed once by 'token create' and is in no file, so a copy of the store lets nobody in.

CREATE TABLE auth_tokens (
    name        TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,     -- hex SHA-256 of the token's UTF-8 bytes
    created_at  TEXT NOT NULL
);
