-- Typed dimensions (SPEC §11.2): the values a column's type allows (an ENUM's labels, a boolean, a CHECK
-- list) as JSON {"kind", "type", "values"}, NULL when the type is open; filters are validated against it.
ALTER TABLE catalog_columns ADD COLUMN domain TEXT;
