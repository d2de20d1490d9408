package dev.schemabrain.mcp.tool;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dispatch: strict arguments before the tool runs, and no exception ever escapes as a crash. */
class ToolRegistryTest {

    private static final ArgSchema ARGS = ArgSchema.parse("""
            {"properties": {"query": {"type": "string", "minLength": 1, "maxLength": 20},
                            "limit": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3}},
             "required": ["query"]}""");

    private final AtomicInteger calls = new AtomicInteger();

    private Tool tool(boolean fails) {
        ToolSpec spec = ToolSpec.storeReader("echo_tool", "Echo", "Use this when testing. Use other_tool instead.",
                ARGS, LatencyHint.FAST);
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return spec;
            }

            @Override
            public Envelope call(Arguments arguments, ToolCall call) {
                calls.incrementAndGet();
                if (fails) {
                    throw new IllegalStateException("boom at /secret/path");
                }
                return Envelope.success(new ObjectMapper().createObjectNode().put("limit", arguments.integer("limit")),
                        null, null, List.of("echo_tool"));
            }
        };
    }

    @Test
    void validArgumentsReachTheToolWithDefaultsApplied() {
        Envelope env = ToolRegistry.of(List.of(tool(false))).call("echo_tool", Map.of("query", "x"));
        assertEquals(Status.SUCCESS, env.status());
        assertEquals(3, env.data().get("limit").asInt());
    }

    @Test
    void invalidArgumentsNeverReachTheToolAndComeBackAsAnEnvelope() {
        ToolRegistry registry = ToolRegistry.of(List.of(tool(false)));
        Envelope env = registry.call("echo_tool", Map.of("query", "x", "limt", 2));
        assertEquals(0, calls.get());
        assertEquals(ErrorKind.INVALID_ARGUMENT, env.error().kind());
        assertEquals("echo_tool", env.error().recovery().suggestedTool());
        assertEquals(List.of("limit"), env.error().recovery().fuzzyMatches(), "the argument that was probably meant");
        assertEquals(Map.of("query", "x"), env.error().recovery().suggestedArgs());
        assertTrue(env.error().message().contains("Allowed arguments: query (string, required), limit (integer, default 3)."),
                env.error().message());

        Envelope tooLong = registry.call("echo_tool", Map.of("query", "q".repeat(100_000)));
        assertFalse(tooLong.toJson().contains("qqqqqqqqqqqqqqqqqqqqqqqqq"), "a long value is never echoed");
        assertEquals(Map.of(), tooLong.error().recovery().suggestedArgs());
    }

    @Test
    void aFailingToolAnswersInternalErrorWithoutItsDetails() {
        Envelope env = ToolRegistry.of(List.of(tool(true))).call("echo_tool", Map.of("query", "x"));
        assertEquals(ErrorKind.INTERNAL_ERROR, env.error().kind());
        assertFalse(env.toJson().contains("/secret/path") || env.toJson().contains("IllegalStateException"));
    }

    @Test
    void everyCallIsRecordedAndAnAnswerWithoutItsRecordIsWithheld() {
        List<String> recorded = new ArrayList<>();
        CallAudit recording = new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String sqlFingerprint) {
            }

            @Override
            public void completed(ToolCall call, Envelope result) {
                recorded.add(call.tool() + " " + call.caller() + " " + result.status().wireName());
            }
        };
        ToolRegistry registry = ToolRegistry.of(List.of(tool(false))).audited(recording);
        registry.call("echo_tool", Map.of("query", "x"), "claude/1.0");
        registry.call("echo_tool", Map.of("limt", 2), "claude/1.0");
        ToolRegistry.of(List.of(tool(true))).audited(recording).call("echo_tool", Map.of("query", "x"), null);
        assertEquals(List.of("echo_tool claude/1.0 success", "echo_tool claude/1.0 error", "echo_tool null error"), recorded,
                "answered, invalid and failed calls are all recorded");

        CallAudit broken = new CallAudit() {
            @Override
            public void beforeSql(ToolCall call, String sqlFingerprint) {
            }

            @Override
            public void completed(ToolCall call, Envelope result) throws AuditUnavailable {
                throw new AuditUnavailable("disk full", null);
            }
        };
        Envelope withheld = ToolRegistry.of(List.of(tool(false))).audited(broken).call("echo_tool", Map.of("query", "x"), null);
        assertEquals(ErrorKind.INTERNAL_ERROR, withheld.error().kind());
        assertEquals(null, withheld.data(), "the tool's data never leaves unrecorded");
        assertTrue(withheld.error().message().contains("audit log"), withheld.error().message());
    }

    @Test
    void toolNamesAreUnique() {
        assertThrows(IllegalArgumentException.class, () -> ToolRegistry.of(List.of(tool(false), tool(false))));
    }

    @Test
    void sideEffectsMapToTheCharterAnnotations() {
        assertEquals(new ToolHints(true, false, true, false), ToolHints.of(SideEffects.NONE, false, true));
        assertEquals(new ToolHints(true, false, true, false), ToolHints.of(SideEffects.READ, false, true));
        assertEquals(new ToolHints(true, false, true, true), ToolHints.of(SideEffects.READ, true, true));
        assertEquals(new ToolHints(false, true, false, true), ToolHints.of(SideEffects.WRITE, true, false));
    }
}
