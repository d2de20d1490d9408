/**
 * What a server serves, whatever the transport: the snapshot of the store (catalog, descriptions, PII tags, semantic
 * layer, search indexes) that {@link dev.schemabrain.served.StoreCatalogProvider} loads and swaps when the store
 * changes, and each caller's cut of it ({@link dev.schemabrain.served.ScopedView}) under its role's access.
 */
package dev.schemabrain.served;
