package dev.schemabrain.semantic.model;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class MetricKindTest {

    /** Names the case a kind reached, with the kind it was given. */
    private static final MetricKind.Cases<List<Object>> REACHED = MetricKind.Cases.of(s -> List.of("simple", s),
            r -> List.of("ratio", r), d -> List.of("derived", d), c -> List.of("cumulative", c));

    private static final List<MetricKind> ONE_OF_EACH = List.of(MetricKind.SIMPLE,
            new MetricKind.Ratio("paid", "issued"), new MetricKind.Derived("paid - refunded"),
            new MetricKind.Cumulative("paid", 3, TimeGrain.MONTH, null));

    @Test
    void eachKindReachesItsOwnCase() {
        for (MetricKind kind : ONE_OF_EACH) {
            List<Object> reached = kind.accept(REACHED);
            assertEquals(kind.wireName(), reached.get(0), kind.toString());
            assertSame(kind, reached.get(1), "the case gets the kind itself");
        }
    }

    @Test
    void everyKindIsCovered() {
        assertEquals(Arrays.stream(MetricKind.class.getPermittedSubclasses()).map(Class::getName).sorted().toList(),
                ONE_OF_EACH.stream().map(k -> k.getClass().getName()).sorted().toList());
    }

    @Test
    void onlySimpleIsSimple() {
        for (MetricKind kind : ONE_OF_EACH) {
            assertEquals(kind instanceof MetricKind.Simple, kind.isSimple(), kind.toString());
        }
    }
}
