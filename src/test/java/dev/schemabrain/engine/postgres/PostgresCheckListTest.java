package dev.schemabrain.engine.postgres;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** CHECK (x IN (...)) as pg_get_constraintdef prints it back. */
class PostgresCheckListTest {

    @Test
    void readsTheListsPostgresPrints() {
        assertEquals(Optional.of(List.of("a", "it's")),
                PostgresSource.checkList("CHECK ((status = ANY (ARRAY['a'::text, 'it''s'::text])))", "status"));
        assertEquals(Optional.of(List.of("US", "DE")), PostgresSource.checkList(
                "CHECK (((country)::text = ANY ((ARRAY['US'::character varying, 'DE'::character varying])::text[])))", "country"));
        assertEquals(Optional.of(List.of("USD", "EUR")),
                PostgresSource.checkList("CHECK ((VALUE = ANY (ARRAY['USD'::bpchar, 'EUR'::bpchar])))", "currency"));
        assertEquals(Optional.of(List.of("x")),
                PostgresSource.checkList("CHECK ((\"Kind\" = ANY (ARRAY['x'::text])))", "Kind"));
    }

    @Test
    void leavesOtherConditionsAlone() {
        assertEquals(Optional.empty(), PostgresSource.checkList("CHECK ((rating = ANY (ARRAY[1, 2, 3])))", "rating"));
        assertEquals(Optional.empty(), PostgresSource.checkList("CHECK ((status = 'a'::text))", "status"));
        assertEquals(Optional.empty(), PostgresSource.checkList("CHECK ((amount > 0))", "amount"));
        assertEquals(Optional.empty(), PostgresSource.checkList(
                "CHECK (((status = ANY (ARRAY['a'::text])) AND (amount > 0)))", "status"));
        assertEquals(Optional.empty(), PostgresSource.checkList("CHECK ((other = ANY (ARRAY['a'::text])))", "status"));
    }
}
