package dev.schemabrain.store;

import dev.schemabrain.error.StoreException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What --store, --store-schema and --store-url-env name, and that no form ever shows a password. */
class StoreLocationTest {

    static StoreLocation parse(String store, String schema, String env, Map<String, String> vars) throws StoreException {
        return Stores.location(store, schema, env, vars);
    }

    @Test
    void aPathIsASqliteFile() throws Exception {
        assertEquals(new StoreLocation.SqliteFile(Path.of("data/x.db")), parse("data/x.db", null, null, Map.of()));
    }

    @Test
    void aUrlIsAPostgresSchemaWithTheDefaultOrTheNamedSchema() throws Exception {
        var plain = (StoreLocation.PostgresSchema) parse("postgres://sb:secret@db:5433/ops", null, null, Map.of());
        assertEquals("schemabrain", plain.schema());
        assertEquals("postgresql://db:5433/ops (schema schemabrain)", plain.toString());
        assertEquals("secret", plain.url().password());

        var query = (StoreLocation.PostgresSchema) parse("postgresql://db/ops?sslmode=require&schema=team_a&connectTimeout=5",
                null, null, Map.of());
        assertEquals("team_a", query.schema());
        assertEquals("sslmode=require&connectTimeout=5", query.url().query(), "schema is ours, not the driver's");

        var option = (StoreLocation.PostgresSchema) parse("postgresql://db/ops?schema=team_a", "team_b", null, Map.of());
        assertEquals("team_b", option.schema(), "the option wins over the URL");
    }

    @Test
    void theUrlWithItsPasswordComesFromTheEnvironment() throws Exception {
        StoreLocation fromEnv = parse("schemabrain.db", null, "SB_STORE", Map.of("SB_STORE", "postgresql://sb:pw@db/ops"));
        assertInstanceOf(StoreLocation.PostgresSchema.class, fromEnv);
        assertFalse(fromEnv.toString().contains("pw"));
        assertEquals("The environment variable SB_STORE is not set or empty; export it with the store URL"
                        + " (postgresql://user:password@host/database), or pass --store.",
                assertThrows(StoreException.class, () -> parse("schemabrain.db", null, "SB_STORE", Map.of())).getMessage());
    }

    @Test
    void refusalsAreOneSentence() {
        assertEquals("--store-schema applies to a PostgreSQL store only; drop it or pass --store postgresql://host/database.",
                assertThrows(StoreException.class, () -> parse("x.db", "s", null, Map.of())).getMessage());
        assertEquals("The store schema must be lower-case letters, digits and underscores (at most 63, not starting with"
                        + " a digit); pass another --store-schema.",
                assertThrows(StoreException.class, () -> parse("postgresql://db/ops?schema=a;drop", null, null, Map.of()))
                        .getMessage());
        assertEquals("The store URL names no database; write it as postgresql://user@host:port/database.",
                assertThrows(StoreException.class, () -> parse("postgresql://db", null, null, Map.of())).getMessage());
    }
}
