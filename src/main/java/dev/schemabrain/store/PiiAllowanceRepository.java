package dev.schemabrain.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.Allowance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operator's per-column allowances, one JSON row in {@code pii_settings}
 * ({@code [{"schema": …, "table": …, "column": …, "allow": ["group_by"]}, …]}): replaced by {@code policy apply|tag} with the
 * overrides, read by the server with the tags. Kept in the settings table so no migration is needed.
 */
public final class PiiAllowanceRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<Stored>> SHAPE = new TypeReference<>() {
    };
    private static final String KEY = "allowances";

    /** One column's allowances, resolved against the catalog. */
    public record Entry(QualifiedName table, String column, Set<Allowance> allowed) {
        public Entry {
            allowed = allowed.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(allowed));
        }
    }

    /** The stored shape: names kept apart, so a dot in an identifier cannot shift them. */
    private record Stored(String schema, String table, String column, List<String> allow) {
    }

    private PiiAllowanceRepository() {
    }

    /** Every allowance, by table and column; empty when none was applied. */
    public static Map<QualifiedName, Map<String, Set<Allowance>>> allowances(Connection c) throws SQLException {
        Map<QualifiedName, Map<String, Set<Allowance>>> out = new LinkedHashMap<>();
        if (!PiiTablesPresent.settings(c)) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT value FROM pii_settings WHERE key = ?")) {
            st.setString(1, KEY);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return out;
                }
                for (Stored s : JSON.readValue(rs.getString(1), SHAPE)) {
                    EnumSet<Allowance> set = EnumSet.noneOf(Allowance.class);
                    s.allow().forEach(n -> set.add(Allowance.fromWireName(n)));
                    out.computeIfAbsent(QualifiedName.of(s.schema(), s.table()), t -> new LinkedHashMap<>()).put(s.column(), set);
                }
                return out;
            } catch (JsonProcessingException | IllegalArgumentException e) {
                throw new SQLException("the stored PII allowances are not valid (" + e.getMessage()
                        + "); run 'schemabrain policy apply' again", e);
            }
        }
    }

    /** Makes the allowances exactly {@code entries}; call inside {@link SqliteStore#write}. */
    public static void replace(Connection c, List<Entry> entries) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM pii_settings WHERE key = ?")) {
            delete.setString(1, KEY);
            delete.executeUpdate();
        }
        List<Stored> out = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.allowed().isEmpty()) {
                out.add(new Stored(e.table().schema(), e.table().table(), e.column(),
                        e.allowed().stream().sorted().map(Allowance::wireName).toList()));
            }
        }
        if (out.isEmpty()) {
            return;
        }
        try (PreparedStatement st = c.prepareStatement("INSERT INTO pii_settings (key, value) VALUES (?, ?)")) {
            st.setString(1, KEY);
            st.setString(2, JSON.writeValueAsString(out));
            st.executeUpdate();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of string lists always serializes", e);
        }
    }

    /** Whether the store has the PII settings table (a store older than the PII layer does not). */
    private static final class PiiTablesPresent {
        static boolean settings(Connection c) throws SQLException {
            return StoreDialect.hasTable(c, "pii_settings");
        }
    }
}
