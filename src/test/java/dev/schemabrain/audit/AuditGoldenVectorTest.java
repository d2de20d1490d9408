package dev.schemabrain.audit;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fixed vectors for the audit chain, computed once outside Java (Python's hmac and hashlib over the JSON
 * text written out below), so a change of the canonical form, the key derivation or the field set fails
 * here instead of silently making every existing log unverifiable.
 */
class AuditGoldenVectorTest {

    /** 32 bytes 00 01 02 … 1f. */
    private static final AuditKey KEY = AuditKey.of(HexFormat.of().parseHex(
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));

    private static final AuditEntry ENTRY = new AuditEntry("2c7df8ebbff8efad", "claude-code/2.0", "get_metric",
            AuditEntry.Phase.COMPLETED, "partial", null, List.of("contact"), "ab".repeat(32), "0123456789abcdef", 3L, 12L);

    @Test
    void theCanonicalFormIsSortedCompactUtf8() {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("name", "revenue");
        args.put("filters", List.of(Map.of("column", "customer.country", "op", "eq", "value", "Österreich")));
        args.put("limit", 10);
        assertEquals("{\"filters\":[{\"column\":\"customer.country\",\"op\":\"eq\",\"value\":\"Österreich\"}],\"limit\":10,\"name\":\"revenue\"}",
                new String(CanonicalJson.bytes(args), StandardCharsets.UTF_8));
        assertEquals("a03583407aa73ac96706527d652fb4564261dc6f997ac4e97a5b5dc979940a72", ArgsHash.of(KEY, args));
    }

    @Test
    void theKeyedChainHashOfAFixedRowIsFixed() {
        // HMAC-SHA256(HMAC-SHA256(key, "schemabrain audit chain v1"), 32 zero bytes ‖ JSON) over
        // {"args_hash":"abab…","caller":"claude-code/2.0","duration_ms":12,"error_kind":null,"id":1,
        //  "occurred_at":"2026-11-23T07:00:00Z","phase":"completed","pii_categories":["contact"],"row_count":3,
        //  "source_id":"2c7df8ebbff8efad","sql_fingerprint":"0123456789abcdef","status":"partial","tool":"get_metric"}
        assertEquals("268a3f7e3e70ed1c0d8ce9855f6aa0ce681f4b064d585a9140d58d9b85045c9a",
                ChainRows.chainHash(KEY, AuditLog.GENESIS, null, 1, "2026-11-23T07:00:00Z", ENTRY));
        assertEquals("8f7d92106ff003a6", KEY.id());
    }

    @Test
    void aKeylessRowOfTheFirstBuildStillHashesAsItDid() {
        assertEquals("48d6b2e5168ec3bd3fc0b140ec35d6a1aa01abab5f07f25cf6fd6569d3790dbc",
                ChainRows.chainHash(null, AuditLog.GENESIS, null, 1, "2026-11-23T07:00:00Z", ENTRY));
    }
}
