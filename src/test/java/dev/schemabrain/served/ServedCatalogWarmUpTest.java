package dev.schemabrain.served;

import dev.schemabrain.access.Access;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.gate.SqlDecision;
import dev.schemabrain.gate.SqlGate;
import dev.schemabrain.store.StoreLocation;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The warm-up's statement is one the gate lets through, joined as an agent writes one, so it warms the whole path. */
class ServedCatalogWarmUpTest {

    @TempDir
    Path dir;

    @Test
    void theWarmUpStatementPassesTheGateWithAJoin() throws Exception {
        Path store = dir.resolve("demo.db");
        InProcessCli.Result demo = InProcessCli.run("--store", store.toString(), "demo", "--events", "none", "--database", dir.resolve("demo.sqlite").toString());
        assertEquals(0, demo.exitCode(), demo.stderr());
        ServedCatalog served = new StoreCatalogProvider(StoreLocation.file(store), () -> null, Optional.empty()).current().orElseThrow();
        var engine = Engines.SQLITE;
        String sql = served.warmStatement(engine).orElseThrow();
        assertTrue(sql.contains(" JOIN ") && sql.contains(" ORDER BY "), sql);
        SqlDecision decision = new SqlGate(engine.sqlRules().orElseThrow(), 5)
                .check("execute", sql, served, Access.UNRESTRICTED, 10);
        assertInstanceOf(SqlDecision.Plan.class, decision, () -> sql + " was refused: " + decision);
        served.warmUp(engine);   // and the whole warm-up runs on it without a failure
    }
}
