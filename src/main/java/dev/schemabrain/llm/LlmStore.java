package dev.schemabrain.llm;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.store.StoreDialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The llm_cache and llm_ledger tables (migrations V8, V9): what each table was described from and by which
 * model, what each call cost.
 */
public final class LlmStore {

    private LlmStore() {
    }

    /** One table's last description by a model. */
    public record Cached(String cacheKey, String model, String confidence) {
    }

    /** One call's spend. */
    public record Spend(String runStartedAt, String sourceId, String provider, String model, QualifiedName table,
                        long inputTokens, long outputTokens, double usd) {
    }

    /** Spend of one run and model, for {@code llm ledger}. */
    public record RunTotal(String runStartedAt, String provider, String model, int requests, long inputTokens,
                           long outputTokens, double usd) {
    }

    /**
     * One fresh description, written with the run.
     *
     * @param model         the model asked (what the cache compares)
     * @param answeredModel the model the answer named, already cleaned; null when it named none
     */
    public record Described(QualifiedName table, String cacheKey, String model, String answeredModel, String confidence) {
    }

    static Map<QualifiedName, Cached> cache(Connection c, String sourceId) throws SQLException {
        Map<QualifiedName, Cached> cache = new HashMap<>();
        if (!StoreDialect.hasTable(c, "llm_cache")) {
            return cache;
        }
        try (PreparedStatement st = c.prepareStatement(
                "SELECT schema_name, table_name, cache_key, model, confidence FROM llm_cache WHERE source_id = ?")) {
            st.setString(1, sourceId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    cache.put(QualifiedName.of(rs.getString(1), rs.getString(2)),
                            new Cached(rs.getString(3), rs.getString(4), rs.getString(5)));
                }
            }
        }
        return cache;
    }

    static void write(Connection c, String sourceId, String at, List<Described> described, List<Spend> spend)
            throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(
                "DELETE FROM llm_cache WHERE source_id = ? AND schema_name = ? AND table_name = ?");
             PreparedStatement insert = c.prepareStatement("""
                     INSERT INTO llm_cache (source_id, schema_name, table_name, cache_key, model, confidence, described_at,
                                            answered_model)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Described d : described) {
                delete.setString(1, sourceId);
                delete.setString(2, d.table().schema());
                delete.setString(3, d.table().table());
                delete.addBatch();
                insert.setString(1, sourceId);
                insert.setString(2, d.table().schema());
                insert.setString(3, d.table().table());
                insert.setString(4, d.cacheKey());
                insert.setString(5, d.model());
                insert.setString(6, d.confidence());
                insert.setString(7, at);
                insert.setString(8, d.answeredModel());
                insert.addBatch();
            }
            delete.executeBatch();
            insert.executeBatch();
        }
        try (PreparedStatement st = c.prepareStatement("""
                INSERT INTO llm_ledger (run_started_at, source_id, provider, model, schema_name, table_name,
                                        input_tokens, output_tokens, usd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (Spend s : spend) {
                st.setString(1, s.runStartedAt());
                st.setString(2, s.sourceId());
                st.setString(3, s.provider());
                st.setString(4, s.model());
                st.setString(5, s.table().schema());
                st.setString(6, s.table().table());
                st.setLong(7, s.inputTokens());
                st.setLong(8, s.outputTokens());
                st.setDouble(9, s.usd());
                st.addBatch();
            }
            st.executeBatch();
        }
    }

    /** Spend per run and model, oldest run first. */
    public static List<RunTotal> ledger(Connection c) throws SQLException {
        List<RunTotal> rows = new ArrayList<>();
        if (!StoreDialect.hasTable(c, "llm_ledger")) {
            return rows;
        }
        try (PreparedStatement st = c.prepareStatement("""
                SELECT run_started_at, provider, model, count(*), sum(input_tokens), sum(output_tokens), sum(usd)
                  FROM llm_ledger GROUP BY run_started_at, provider, model ORDER BY run_started_at, provider, model""");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                rows.add(new RunTotal(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getLong(5),
                        rs.getLong(6), rs.getDouble(7)));
            }
        }
        return rows;
    }
}
