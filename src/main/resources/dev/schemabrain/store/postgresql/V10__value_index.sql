-- The value index (retrieval v2): a column's distinct short text values as a JSON array, read under
-- ValuePolicy (bounded, never for PII-tagged columns), so a question naming a value finds its table.
ALTER TABLE catalog_columns ADD COLUMN value_index TEXT NOT NULL DEFAULT '[]';
