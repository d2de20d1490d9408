package dev.schemabrain.served;

import java.util.Optional;

/** What the tools read: the indexed catalog as of now, or nothing when the store is missing or empty. */
@FunctionalInterface
public interface CatalogProvider {

    /** @throws StillLoading when a load under way has not finished within the provider's bound */
    Optional<ServedCatalog> current();

    /** {@link #current()}, or without waiting while a load is under way: the catalog loaded before it, if any. */
    default Optional<ServedCatalog> currentWithoutWaiting() {
        return current();
    }

    /** A load under way (a server's first, or after a re-index) took longer than a call may wait for it. */
    final class StillLoading extends RuntimeException {
        public StillLoading(String message) {
            super(message, null, false, false);
        }
    }
}
