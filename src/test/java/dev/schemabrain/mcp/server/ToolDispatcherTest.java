package dev.schemabrain.mcp.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.access.Access;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.CallAudit;
import dev.schemabrain.mcp.tool.LatencyHint;
import dev.schemabrain.mcp.tool.SideEffects;
import dev.schemabrain.mcp.tool.Tool;
import dev.schemabrain.mcp.tool.ToolCall;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.mcp.tool.ToolSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dispatcher's lanes with a source tool that holds its thread until the test lets it go: a full
 * source lane never delays a catalog tool, calls past its queue are answered source_busy at once, a
 * caller over its rate is refused, and every answer, turned away or not, is recorded.
 */
class ToolDispatcherTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger sourceRuns = new AtomicInteger();
    private final List<String> audited = Collections.synchronizedList(new ArrayList<>());
    private ToolDispatcher dispatcher;

    private final Tool slowSource = new Tool() {
        private final ToolSpec spec = new ToolSpec("slow_metric", "Slow metric", "Use this when testing a source.",
                ArgSchema.parse("{\"properties\": {\"name\": {\"type\": \"string\"}}}"), SideEffects.READ, true, true, LatencyHint.SLOW);

        @Override
        public ToolSpec spec() {
            return spec;
        }

        @Override
        public Envelope call(Arguments arguments, ToolCall call) {
            sourceRuns.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Envelope.success(JSON.createObjectNode().put("rows", 1), null, null, List.of("slow_metric"));
        }
    };

    private final Tool catalog = new Tool() {
        private final ToolSpec spec = ToolSpec.storeReader("describe_entity", "Describe", "Use this when testing the catalog.",
                ArgSchema.empty(), LatencyHint.FAST);

        @Override
        public ToolSpec spec() {
            return spec;
        }

        @Override
        public Envelope call(Arguments arguments, ToolCall call) {
            return Envelope.success(JSON.createObjectNode().put("ok", true), null, null, List.of("describe_entity"));
        }
    };

    private final CallAudit recording = new CallAudit() {
        @Override
        public void beforeSql(ToolCall call, String sqlFingerprint) {
        }

        @Override
        public void completed(ToolCall call, Envelope result) {
            audited.add(call.tool() + " " + call.caller() + " " + result.status().wireName()
                    + (result.error() == null ? "" : "/" + result.error().kind().wireName()));
        }
    };

    private ToolDispatcher dispatcher(CallerRateLimiter limiter) {
        ToolRegistry registry = ToolRegistry.of(List.of(catalog, slowSource)).audited(recording);
        dispatcher = new ToolDispatcher(registry, new DispatchCapacity(2, 16, 2, 3), limiter,
                new CallerRateLimiter(RateLimit.OFF));
        return dispatcher;
    }

    @AfterEach
    void close() {
        release.countDown();
        if (dispatcher != null) {
            dispatcher.close();
        }
    }

    private static String outcome(CompletableFuture<Envelope> answer) {
        Envelope e = answer.join();
        return e.status().wireName() + (e.error() == null ? "" : "/" + e.error().kind().wireName());
    }

    @Test
    void aFullSourceLaneTurnsCallsAwayAtOnceAndNeverDelaysTheCatalog() throws Exception {
        ToolDispatcher d = dispatcher(new CallerRateLimiter(RateLimit.OFF));
        List<CompletableFuture<Envelope>> flood = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            flood.add(d.dispatch("slow_metric", Map.of("name", "m" + i), "agent/1", Access.UNRESTRICTED));
        }
        // 2 running and 3 queued are held by the test; the other 15 were answered without running.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (flood.stream().filter(CompletableFuture::isDone).count() < 15 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        List<CompletableFuture<Envelope>> answered = flood.stream().filter(CompletableFuture::isDone).toList();
        assertEquals(15, answered.size());
        answered.forEach(f -> assertEquals("error/source_busy", outcome(f)));
        Envelope busy = answered.get(0).join();
        assertTrue(busy.error().message().contains("2 slow_metric calls are running and 3 are waiting"), busy.error().message());
        assertEquals("slow_metric", busy.error().recovery().suggestedTool());
        assertTrue(busy.error().recovery().suggestedArgs().get("name").toString().startsWith("m"), "the same call, to retry");

        // The catalog answers while every admitted source call is still held.
        assertEquals("success", outcome(d.dispatch("describe_entity", Map.of(), "agent/1", Access.UNRESTRICTED)));
        assertEquals(5, flood.stream().filter(f -> !f.isDone()).count());
        // A lane thread counts its run when the tool starts, which may trail the turned-away answers.
        while (sourceRuns.get() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(2, sourceRuns.get(), "only the source lane's two threads run the tool");

        release.countDown();
        List<String> outcomes = flood.stream().map(ToolDispatcherTest::outcome).toList();
        assertEquals(5, outcomes.stream().filter("success"::equals).count());
        assertEquals(15, outcomes.stream().filter("error/source_busy"::equals).count());
        assertEquals(5, sourceRuns.get());
        d.close();
        // Every answer was recorded: 20 source calls and the catalog call.
        assertEquals(21, audited.size());
        assertEquals(15, audited.stream().filter(a -> a.equals("slow_metric agent/1 error/source_busy")).count());
    }

    @Test
    void aCallerOverItsRateIsRefusedWithTheWaitWhileOthersAndTheCatalogGoOn() {
        AtomicLong now = new AtomicLong();
        ToolDispatcher d = dispatcher(new CallerRateLimiter(RateLimit.parse("1/s", 2), now::get, 100));
        release.countDown();
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            first.add(outcome(d.dispatch("slow_metric", Map.of("name", "m"), "agent/1", Access.UNRESTRICTED)));
        }
        assertEquals(List.of("success", "success", "refused/policy_blocked", "refused/policy_blocked",
                "refused/policy_blocked", "refused/policy_blocked"), first);
        Envelope refused = d.dispatch("slow_metric", Map.of("name", "m"), "agent/1", Access.UNRESTRICTED).join();
        assertEquals(Status.REFUSED, refused.status());
        assertEquals("slow_metric is limited to 1 call per second per caller (bursts of up to 2), and this caller (its credential)"
                + " has used its allowance; retry in 1.0 s.", refused.error().message());
        assertEquals(Map.of("name", "m"), refused.error().recovery().suggestedArgs());
        assertTrue(refused.error().recovery().suggestedRewrite().startsWith("wait 1.0 s"));
        assertEquals(List.of("describe_entity"), refused.followUpHints(), "a tool that answers meanwhile");

        assertEquals("success", outcome(d.dispatch("describe_entity", Map.of(), "agent/1", Access.UNRESTRICTED)), "catalog calls have their own budget");
        assertEquals("success", outcome(d.dispatch("slow_metric", Map.of("name", "m"), "other/1", Access.UNRESTRICTED)), "another caller has its own");
        now.addAndGet(1_000_000_000L);
        assertEquals("success", outcome(d.dispatch("slow_metric", Map.of("name", "m"), "agent/1", Access.UNRESTRICTED)), "after the wait");
        d.close();
        assertEquals(5, audited.stream().filter(a -> a.equals("slow_metric agent/1 refused/policy_blocked")).count());
        assertFalse(audited.isEmpty());
    }

    @Test
    void catalogCallsHaveTheirOwnPerCallerBudgetAndAreRecordedWhenRefused() {
        AtomicLong now = new AtomicLong();
        ToolRegistry registry = ToolRegistry.of(List.of(catalog, slowSource)).audited(recording);
        dispatcher = new ToolDispatcher(registry, new DispatchCapacity(2, 16, 2, 3), new CallerRateLimiter(RateLimit.OFF),
                new CallerRateLimiter(RateLimit.parse("10/s", 3), now::get, 100));
        release.countDown();
        List<String> probe = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            probe.add(outcome(dispatcher.dispatch("describe_entity", Map.of(), "token:alice", Access.UNRESTRICTED)));
        }
        assertEquals(List.of("success", "success", "success", "refused/policy_blocked", "refused/policy_blocked"), probe);
        Envelope refused = dispatcher.dispatch("describe_entity", Map.of(), "token:alice", Access.UNRESTRICTED).join();
        assertTrue(refused.error().message().startsWith("describe_entity is limited to 10 calls per second per caller"
                + " (bursts of up to 3)"), refused.error().message());
        assertTrue(refused.error().message().contains("retry in 100 ms"), refused.error().message());
        assertEquals("success", outcome(dispatcher.dispatch("slow_metric", Map.of("name", "m"), "token:alice", Access.UNRESTRICTED)),
                "the metric budget is separate");
        assertEquals("success", outcome(dispatcher.dispatch("describe_entity", Map.of(), "token:bob", Access.UNRESTRICTED)), "another caller has its own");
        now.addAndGet(100_000_000L);
        assertEquals("success", outcome(dispatcher.dispatch("describe_entity", Map.of(), "token:alice", Access.UNRESTRICTED)), "after the wait");
        dispatcher.close();
        assertEquals(3, audited.stream().filter(a -> a.equals("describe_entity token:alice refused/policy_blocked")).count(),
                "a refused probe leaves its audit row");
    }
}
