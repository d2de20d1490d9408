-- validation_state gains 'rejected': a metric a reviewer rejected stays in semantic_objects (so the next index does
-- not draft it again) with reviewed_by/reviewed_at naming who rejected it and when, and is never served. The column
-- is free text, so no row changes; this version exists so that an older build, which would read 'rejected' as a
-- draft and serve it, refuses the store as written by a newer SchemaBrain. The index serves the console's lists of
-- drafts and rejected metrics.
CREATE INDEX semantic_objects_by_state ON semantic_objects (kind, validation_state);
