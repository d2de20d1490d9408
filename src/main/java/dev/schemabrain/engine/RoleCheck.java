package dev.schemabrain.engine;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
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

    private static final int SHOWN = 5;

    /** The first few privileges of {@code writes} (one text column), how many more it holds, and the grants. */
    public static RoleCheck of(ResultSet writes, List<String> readOnlyGrants) throws SQLException {
        List<String> shown = new ArrayList<>();
        int total = 0;
        while (writes.next()) {
            if (total++ < SHOWN) {
                shown.add(writes.getString(1));
            }
        }
        return new RoleCheck(shown, Math.max(0, total - SHOWN), readOnlyGrants);
    }

    public boolean canWrite() {
        return !writes.isEmpty();
    }
}
