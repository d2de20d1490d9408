package dev.schemabrain.engine;

import dev.schemabrain.catalog.QualifiedName;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The database's own wall behind the gate: column privileges that let the serving role SELECT only the
 * columns SchemaBrain serves, so SQL the gate never saw is refused by the database too. One implementation per engine
 * with roles; a file engine has none ({@link Engine#columnGrants}).
 */
public interface ColumnGrants {

    /** The columns of one table the role may read. */
    record TableColumns(QualifiedName table, List<String> columns) {
        public TableColumns {
            columns = List.copyOf(columns);
        }
    }

    /**
     * A power of the connected role that reads past column privileges.
     *
     * @param what   what it is ("superuser", "member of pg_read_server_files")
     * @param revoke the statement an administrator runs to take it away
     */
    record Power(String what, String revoke) {
    }

    /**
     * The role as GRANT names it, quoted.
     *
     * @throws IllegalArgumentException with one sentence, for a name this engine's GRANT would not take as a role
     */
    String grantee(String role);

    /**
     * The statements that leave {@code grantee} reading exactly {@code granted}: first a REVOKE of SELECT on every
     * table of {@code revoked} (which on these engines takes the column privileges with it, so a rerun after a policy
     * change leaves no column of the last run), then whatever the role needs to reach a schema, then one GRANT SELECT
     * (columns) per table.
     */
    List<String> statements(String grantee, List<QualifiedName> revoked, List<TableColumns> granted);

    /** A line to print above the statements, where the engine's REVOKE behaves in a way an administrator should know. */
    default List<String> notes() {
        return List.of();
    }

    /** Whether a REVOKE failed only because the role held nothing to revoke (safe to go on when applying). */
    default boolean nothingToRevoke(SQLException e) {
        return false;
    }

    /** A connection that may run GRANT and REVOKE (the source's own sessions are read-only): the administrator's. */
    Connection admin(SourceUrl url) throws SQLException;

    /** The connected role's powers over the server that read past any privilege (superuser, server files). */
    List<Power> powers(Connection c) throws SQLException;

    /**
     * The connected role's SELECT grants wider than a table (every table of a database or of the server), which reach
     * every column whatever the column privileges say.
     */
    List<Power> broadReads(Connection c) throws SQLException;

    /** Whether {@code e} is the database refusing the connected role a table or column. */
    boolean denied(SQLException e);
}
