package dev.schemabrain.retrieve;

import java.util.List;
import java.util.Optional;

/** Ranks tables for a question in words. Scores lie in [0, 1]; ties are broken by qualified name. */
public interface TableRetriever {

    /** The best {@code limit} tables for {@code query}, optionally only from {@code schema}. */
    List<TableHit> search(String query, int limit, Optional<String> schema);
}
