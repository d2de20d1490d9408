package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;

import java.util.Optional;

/**
 * The catalog version of a shared store, asked at most once per interval through one kept connection:
 * a serving instance notices another instance's index run within the interval, at the cost of one
 * single-row SELECT per interval, however many calls it answers.
 */
public final class CatalogVersionPoll implements AutoCloseable {

    /** How stale a served catalog may be after another instance changed it. */
    public static final long DEFAULT_INTERVAL_MILLIS = 1_000;

    private final StoreLocation location;
    private final long intervalNanos;
    private Store store;
    private Optional<String> last = Optional.empty();
    private long askedAt;
    private boolean asked;

    public CatalogVersionPoll(StoreLocation location, long intervalMillis) {
        this.location = location;
        this.intervalNanos = intervalMillis * 1_000_000;
    }

    /** The version last read, read again when the interval has passed; empty when the store cannot be read. */
    public synchronized Optional<String> version() {
        long now = System.nanoTime();
        if (asked && now - askedAt < intervalNanos) {
            return last;
        }
        try {
            if (store == null) {
                store = Stores.open(location);
            }
            last = store.catalogVersion();
        } catch (StoreException e) {
            close();   // reconnect on the next question (a restarted server, a dropped connection)
            last = Optional.empty();
        }
        asked = true;
        askedAt = now;
        return last;
    }

    @Override
    public synchronized void close() {
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
