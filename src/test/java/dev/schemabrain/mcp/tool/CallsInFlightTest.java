package dev.schemabrain.mcp.tool;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.Arguments;
import dev.schemabrain.mcp.envelope.Envelope;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Background work gives way to the calls a counted registry is answering, and never waits long for a stuck one. */
class CallsInFlightTest {

    private static Tool tool(CountDownLatch inside, CountDownLatch release, AtomicBoolean sawItself, CallsInFlight calls) {
        ToolSpec spec = ToolSpec.storeReader("slow_tool", "Slow", "Use this when testing. Use other_tool instead.",
                ArgSchema.parse("{\"properties\": {}}"), LatencyHint.FAST);
        return new Tool() {
            @Override
            public ToolSpec spec() {
                return spec;
            }

            @Override
            public Envelope call(Arguments arguments, ToolCall call) {
                sawItself.set(calls.any());
                inside.countDown();
                try {
                    release.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Envelope.success(new ObjectMapper().createObjectNode(), null, null, List.of("slow_tool"));
            }
        };
    }

    @Test
    void aCountedRegistryCountsACallWhileItRunsAndNotAfter() throws Exception {
        CallsInFlight calls = new CallsInFlight();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean sawItself = new AtomicBoolean();
        ToolRegistry registry = ToolRegistry.of(List.of(tool(inside, release, sawItself, calls))).counted(calls);
        Thread caller = new Thread(() -> registry.call("slow_tool", Map.of()));
        caller.start();
        assertTrue(inside.await(5, TimeUnit.SECONDS));
        assertTrue(calls.any(), "a call in flight is counted");
        // Background work waits while it runs ...
        Thread background = new Thread(calls::giveWay);
        background.start();
        background.join(50);
        assertTrue(background.isAlive(), "giveWay waits while a call is in flight");
        release.countDown();
        caller.join(5_000);
        background.join(5_000);
        assertFalse(background.isAlive(), "... and goes on once it has ended");
        assertTrue(sawItself.get());
        assertFalse(calls.any(), "an ended call is no longer counted");
    }

    @Test
    void anUncountedRegistryAndTheWarmUpsOwnCallsCountNothing() {
        CallsInFlight calls = new CallsInFlight();
        AtomicBoolean sawItself = new AtomicBoolean(true);
        CountDownLatch open = new CountDownLatch(0);
        ToolRegistry.of(List.of(tool(new CountDownLatch(1), open, sawItself, calls))).call("slow_tool", Map.of());
        assertFalse(sawItself.get(), "a registry not counted in `calls` leaves it at zero");
    }

    @Test
    void aStuckCallHoldsBackgroundWorkNoLongerThanTheBound() throws Exception {
        CallsInFlight calls = new CallsInFlight();
        calls.enter();   // never exits
        long start = System.nanoTime();
        calls.giveWay();
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waited >= 150 && waited < 2_000, "waited " + waited + " ms");
    }

    @Test
    void aBudgetedGiveWayStopsWaitingOnceItHasWaitedItsBudget() {
        CallsInFlight calls = new CallsInFlight();
        calls.enter();   // a load that never ends
        Runnable pace = calls.givingWayFor(Duration.ofMillis(300));
        long[] waited = new long[3];
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            pace.run();
            waited[i] = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        assertTrue(waited[0] >= 150 && waited[0] < 1_000, "a step waits up to 200 ms: " + waited[0]);
        assertTrue(waited[1] >= 50 && waited[1] < 1_000, "then what is left of the 300 ms: " + waited[1]);
        assertTrue(waited[2] < 20, "then not at all: " + waited[2]);
    }
}
