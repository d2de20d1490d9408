package dev.schemabrain.mcp.server;

import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ranking and the cap of completion/complete; which names a caller may see is CompletionsEdgeTest's. */
class CompletionsTest {

    @Test
    void prefixThenSubstringThenLettersInOrderCaseIgnored() {
        List<String> names = List.of("sales.order_items", "sales.orders", "crm.customer_orders", "hr.payroll", "ops.o_r_d");
        assertEquals(List.of("sales.orders", "sales.order_items", "crm.customer_orders", "ops.o_r_d"),
                Completions.rank(names, "ORD"));
        // The schema may be typed or left out.
        assertEquals(List.of("sales.orders", "sales.order_items"), Completions.rank(names, "sales.ord"));
        assertEquals(List.of("hr.payroll"), Completions.rank(names, "pyrl"));
        assertEquals(List.of(), Completions.rank(names, "zz"));
    }

    @Test
    void atMostAHundredValuesWithTheTotalAndHasMore() {
        List<String> many = IntStream.range(0, 150).mapToObj(i -> "t" + i).toList();
        McpSchema.CompleteResult.CompleteCompletion c = Completions.completion(many, "").completion();
        assertEquals(100, c.values().size());
        assertEquals(150, c.total());
        assertTrue(c.hasMore());
        McpSchema.CompleteResult.CompleteCompletion few = Completions.completion(List.of("b"), "a,").completion();
        assertEquals(List.of("a, b"), few.values());
        assertEquals(false, few.hasMore());
    }
}
