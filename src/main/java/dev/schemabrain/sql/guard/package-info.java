/**
 * The parse, bind and lineage core behind SQL sent through the boundary: one SELECT, parsed by
 * JSqlParser, screened (one statement, no DML, no locking, no executable comments, no INTO, no system catalogs,
 * an allow-list of functions per engine) and bound to the catalog, with each output column's source columns
 * (through aliases, expressions, subqueries, CTEs, joins, windows and set operations) and the columns filters
 * read. Refuses with a closed reason rather than guessing: anything it cannot follow is refused. Depends on the
 * catalog model and JSqlParser only; the MCP tools, the PII decision and execution sit above it.
 */
package dev.schemabrain.sql.guard;
