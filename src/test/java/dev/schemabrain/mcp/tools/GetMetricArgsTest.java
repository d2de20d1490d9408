package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.mcp.args.ArgSpec;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.semantic.model.FilterOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * get_metric's filters and order_by as declared: a malformed one is answered by the argument validator,
 * before the tool (and its catalog) is reached, with the seed's message and the path of the bad field.
 */
class GetMetricArgsTest {

    /** No store behind it: a call that got past validation would fail differently (index_not_ready). */
    private static final ToolRegistry TOOLS = StandardTools.registry(new StoreCatalogProvider(Path.of("target", "no-store.db")), Optional.empty());

    private static final String OPS = "eq, ne, lt, lte, gt, gte, in, not_in, is_null, not_null";

    @Test
    void theDeclaredOperatorsAreTheCompilersOperators() {
        ArgSpec op = TOOLS.tool("get_metric").orElseThrow().spec().arguments().spec("filters").fields().get("op");
        assertEquals(Arrays.stream(FilterOp.values()).map(FilterOp::wireName).toList(), op.enumValues());
    }

    static Map<String, Object> filter(String column, String op, Object value) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("column", column);
        f.put("op", op);
        f.put("value", value);
        return f;
    }

    static Stream<Arguments> badCalls() {
        Map<String, Object> ok = filter("invoice.total", "gt", 1);
        return Stream.of(
                Arguments.of(Map.of("filters", List.of(ok, filter("invoice.total", "between", 1))),
                        "argument 'filters[1].op' must be one of the enum values: " + OPS),
                // Before the declaration, a null inside an in-list reached the compiler and failed as internal_error.
                Arguments.of(Map.of("filters", List.of(filter("customer.country", "in", Arrays.asList("USA", null)))),
                        "argument 'filters[0].value' must be a string, number, boolean or an array of them"),
                Arguments.of(Map.of("filters", List.of(filter("invoice.total", "eq", Map.of("$gt", 1)))),
                        "argument 'filters[0].value' must be a string, number, boolean or an array of them"),
                Arguments.of(Map.of("filters", List.of(Map.of("op", "eq", "value", 1))), "missing required argument 'filters[0].column'"),
                Arguments.of(Map.of("filters", List.of(Map.of("column", "invoice.total", "op", "eq", "value", 1, "and", "1=1"))),
                        "unknown argument 'filters[0].and'"),
                Arguments.of(Map.of("filters", Collections.nCopies(101, ok)), "argument 'filters' array length must be <= 100"),
                Arguments.of(Map.of("order_by", List.of(Map.of("column", "invoice_total_sum", "direction", "DESC"))),
                        "argument 'order_by[0].direction' must be one of the enum values: asc, desc"),
                Arguments.of(Map.of("order_by", List.of("invoice_total_sum")), "argument 'order_by[0]' must be an object"));
    }

    @ParameterizedTest
    @MethodSource("badCalls")
    void aMalformedFilterOrOrderingIsAnInvalidArgumentWithTheSeedsMessage(Map<String, Object> bad, String message) {
        Map<String, Object> call = new HashMap<>(bad);
        call.put("name", "invoice_total_sum");
        Envelope e = TOOLS.call("get_metric", call);
        assertEquals(ErrorKind.INVALID_ARGUMENT, e.error().kind(), e::toJson);
        assertTrue(e.error().message().startsWith("Invalid arguments for get_metric: " + message + ". Allowed arguments:"),
                e.error().message());
        if (bad.containsKey("filters")) {
            // Dropping the caller's filters would answer another question with the same look.
            assertEquals("list_metrics", e.error().recovery().suggestedTool(), e::toJson);
            assertEquals(Map.of(), e.error().recovery().suggestedArgs());
        } else {
            assertEquals("get_metric", e.error().recovery().suggestedTool());
            assertEquals(Map.of("name", "invoice_total_sum"), e.error().recovery().suggestedArgs(), "the valid arguments are kept");
        }
    }

    @Test
    void wellFormedFiltersGetPastValidation() {
        Envelope e = TOOLS.call("get_metric", Map.of("name", "invoice_total_sum",
                "filters", List.of(filter("invoice.total", "gt", 1), filter("customer.country", "in", List.of("USA", "Canada")),
                        Map.of("column", "customer.company", "op", "is_null")),
                "order_by", List.of(Map.of("column", "invoice_total_sum"))));
        assertEquals(ErrorKind.INDEX_NOT_READY, e.error().kind(), e::toJson);
    }
}
