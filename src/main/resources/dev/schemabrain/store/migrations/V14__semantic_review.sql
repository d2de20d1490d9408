-- Who made a semantic object the operator's (confirmed it or wrote it) with 'schemabrain apply', and when
-- (ISO-8601). NULL for drafts and imports, and for objects applied before this version.
ALTER TABLE semantic_objects ADD COLUMN reviewed_by TEXT;
ALTER TABLE semantic_objects ADD COLUMN reviewed_at TEXT;
