package dev.schemabrain.engine;

import java.util.List;

/**
 * What {@code doctor} learns of the connected role: what it could write (empty for a read-only role) and the
 * statements that create a minimal read-only role for the same data.
 *
 * @param writes         a few privileges that let the role change data or schema (e.g. "INSERT on public.orders")
 * @param moreWrites     how many more the list leaves out
 * @param readOnlyGrants the statements of a read-only role, ready to run as an administrator
 */
public record RoleCheck(List<String> writes, int moreWrites, List<String> readOnlyGrants) {

    public RoleCheck {
        writes = List.copyOf(writes);
        readOnlyGrants = List.copyOf(readOnlyGrants);
    }

    public boolean canWrite() {
        return !writes.isEmpty();
    }
}
