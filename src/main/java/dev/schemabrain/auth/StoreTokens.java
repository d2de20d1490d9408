package dev.schemabrain.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.StoreDialect;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.store.Stores;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Token hashes in the store's {@code auth_tokens} table (migration V5), with each bearer's role and claims (V13). */
public record StoreTokens(StoreLocation store) implements TokenStore {

    public StoreTokens(Path store) {
        this(StoreLocation.file(store));
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> CLAIMS = new TypeReference<>() {
    };

    @Override
    public String create(String name, Optional<String> role, Map<String, String> claims) throws SchemaBrainException {
        Tokens.checkName(name);
        if (role.isPresent()) {
            Tokens.checkRole(role.get());
        }
        Tokens.checkClaims(claims);
        String claimsJson = json(claims);
        String token = Tokens.newToken();
        String hash = Tokens.hash(token);
        boolean added;
        try (Store s = Stores.openOrCreate(store)) {
            added = s.write(c -> {
                try (PreparedStatement st = c.prepareStatement(
                        "INSERT INTO auth_tokens (name, token_hash, created_at, role, claims) VALUES (?, ?, ?, ?, ?)"
                                + " ON CONFLICT (name) DO NOTHING")) {
                    st.setString(1, name);
                    st.setString(2, hash);
                    st.setString(3, Instant.now().toString());
                    st.setString(4, role.orElse(null));
                    st.setString(5, claimsJson);
                    return st.executeUpdate() == 1;
                }
            });
        }
        if (!added) {
            throw exists(name);
        }
        return token;
    }

    @Override
    public List<TokenEntry> list() throws StoreException {
        if (!Stores.exists(store)) {
            return List.of();
        }
        try (Store s = Stores.open(store)) {
            return s.read(StoreTokens::entries);
        }
    }

    @Override
    public void revoke(String name) throws SchemaBrainException {
        Tokens.checkName(name);
        if (!Stores.exists(store)) {
            throw missing(name, describe());
        }
        int removed;
        try (Store s = Stores.open(store)) {
            removed = s.write(c -> {
                try (PreparedStatement st = c.prepareStatement("DELETE FROM auth_tokens WHERE name = ?")) {
                    st.setString(1, name);
                    return st.executeUpdate();
                }
            });
        }
        if (removed == 0) {
            throw missing(name, describe());
        }
    }

    @Override
    public String describe() {
        return "the store " + store;
    }

    private static List<TokenEntry> entries(Connection c) throws SQLException {
        List<TokenEntry> out = new ArrayList<>();
        // A store written before V5 (or never written) has no table yet: no tokens.
        if (!StoreDialect.hasTable(c, "auth_tokens")) {
            return out;
        }
        // A store not written since V13 (read-only, or not migrated yet) has tokens without roles.
        boolean roles = hasRoleColumns(c);
        try (PreparedStatement st = c.prepareStatement("SELECT name, created_at, token_hash"
                + (roles ? ", role, claims" : "") + " FROM auth_tokens ORDER BY name");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                out.add(roles
                        ? new TokenEntry(rs.getString(1), Instant.parse(rs.getString(2)), rs.getString(3),
                        Optional.ofNullable(rs.getString(4)), claims(rs.getString(5)))
                        : new TokenEntry(rs.getString(1), Instant.parse(rs.getString(2)), rs.getString(3)));
            }
        }
        return out;
    }

    private static boolean hasRoleColumns(Connection c) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT * FROM auth_tokens WHERE 1 = 0");
             ResultSet rs = st.executeQuery()) {
            ResultSetMetaData meta = rs.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                if (meta.getColumnName(i).equalsIgnoreCase("role")) {
                    return true;
                }
            }
            return false;
        }
    }

    static String json(Map<String, String> claims) {
        try {
            return JSON.writeValueAsString(new TreeMap<>(claims));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a map of strings always serializes", e);
        }
    }

    private static Map<String, String> claims(String json) throws SQLException {
        try {
            return json == null ? Map.of() : JSON.readValue(json, CLAIMS);
        } catch (JsonProcessingException e) {
            throw new SQLException("auth_tokens.claims is not a JSON object of strings", e);
        }
    }

    static UserError exists(String name) {
        return new UserError("A token named " + name + " exists already; revoke it first or choose another name.");
    }

    static UserError missing(String name, String where) {
        return new UserError("There is no token named " + name + " in " + where + "; 'schemabrain token list' shows the names.");
    }
}
