package dev.schemabrain.served;

import java.util.Optional;

/** What the tools read: the indexed catalog as of now, or nothing when the store is missing or empty. */
@FunctionalInterface
public interface CatalogProvider {

    Optional<ServedCatalog> current();
}
