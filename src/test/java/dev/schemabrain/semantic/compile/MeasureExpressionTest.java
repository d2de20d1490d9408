package dev.schemabrain.semantic.compile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The measure grammar: what an analytics engineer writes is accepted, anything that could carry SQL is not. */
class MeasureExpressionTest {

    private static String render(String expression) throws CompileException {
        return MeasureExpression.render(expression, name -> "\"" + name + "\"");
    }

    @Test
    void arithmeticCaseCoalesceAndParentsColumnsRender() throws CompileException {
        assertEquals("\"unit_price\" * \"quantity\"", render("unit_price * quantity"));
        assertEquals("(\"amount_cents\") * 1.0 / NULLIF(100, 0)", render("amount_cents / 100"));
        assertEquals("\"amount_cents\" * \"fx_rate.usd_per_unit\"", render("amount_cents * fx_rate.usd_per_unit"));
        assertEquals("CASE WHEN \"status\" IN ('active', 'past_due') THEN 1 ELSE 0 END",
                render("case when status in ('active','past_due') then 1 else 0 end"));
        assertEquals("CASE WHEN (\"a\" = 1 OR \"b\" <> 'x') AND NOT \"c\" IS NULL THEN \"d\" END",
                render("CASE WHEN (a = 1 OR b != 'x') AND NOT c IS NULL THEN d END"));
        assertEquals("CASE WHEN (\"a\" + \"b\") > 3 THEN COALESCE(\"x\", 0) END", render("case when (a + b) > 3 then coalesce(x, 0) end"));
        assertEquals("CASE WHEN \"kind\" NOT IN ('test', 'internal') AND \"n\" >= (-2) THEN \"n\" ELSE (-\"n\") END",
                render("CASE WHEN kind NOT IN ('test', 'internal') AND n >= -2 THEN n ELSE -n END"));
        // Minus signs in a row are arithmetic, never a SQL comment.
        assertEquals("\"amount\" - (-(-\"comment\"))", render("amount -- -comment"));
        assertTrue(!render("a - -b * --c").contains("--"));
        assertEquals(List.of("status", "amount", "fx.rate"), MeasureExpression.columns("case when status = 'paid' then amount * fx.rate end"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "amount; DROP TABLE invoices",
            "amount /* c */",
            "pg_sleep(10)",
            "(SELECT 1)",
            "amount UNION SELECT password FROM users",
            "'it''s'",
            "case when name = 'x'' OR 1=1 --' then 1 end",
            "case when a = 1 then 1",
            "case when a then 1 end",
            "a || b",
            "amount::text",
            "schema.table.column",
            "amount $$",
            "case when a in (b) then 1 end",
            "'" + "x" + "'",
            ""})
    void anythingElseIsRefusedWithOneSentence(String expression) {
        CompileException e = assertThrows(CompileException.class, () -> render(expression));
        assertTrue(e.getMessage().endsWith("are allowed.") && !e.getMessage().contains("\n"), e.getMessage());
    }
}
