package dev.schemabrain.semantic.compile;

import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Filter values against a column's domain, without a database (the engines' own runs are TypedFiltersAcceptanceTest). */
class FilterValuesTest {

    static Column column(String type, Domain domain) {
        return new Column("c", 1, type, true, null, null, List.of()).withDomain(domain);
    }

    @Test
    void aSetValueIsCheckedMemberByMemberAndBoundInDeclaredOrder() throws Exception {
        Column tags = column("set('sms','email','push')", new Domain(Domain.Kind.SET, null, List.of("sms", "email", "push")));
        assertEquals(List.of("sms,push"), FilterValues.bindAll(Engines.MYSQL, tags, "user.tags",
                new Filter("user.tags", FilterOp.EQ, "PUSH, sms")));
        CompileException e = assertThrows(CompileException.class, () -> FilterValues.check(tags, "user.tags",
                new Filter("user.tags", FilterOp.EQ, "sms,mail")));
        assertEquals("The filter value 'mail' is not one of the members user.tags allows: sms, email, push.", e.getMessage());
        assertEquals("email", e.candidates().get(0));
    }

    @Test
    void aLongDomainIsNamedInPart() {
        List<String> codes = IntStream.range(0, 20).mapToObj(i -> "code_" + i).toList();
        Column c = column("text", new Domain(Domain.Kind.CHECK, null, codes));
        CompileException e = assertThrows(CompileException.class, () -> FilterValues.check(c, "t.c", new Filter("t.c", FilterOp.EQ, "x")));
        assertEquals("The filter value 'x' is not one of the values t.c allows: code_0, code_1, code_2, code_3, code_4, code_5,"
                + " code_6, code_7, code_8, code_9, code_10, code_11 and 8 more.", e.getMessage());
    }

    @Test
    void withheldLabelsLeaveTheValueToTheDatabase() throws Exception {
        // A PII-tagged column keeps its type, not its labels: the value is bound as written, cast on PostgreSQL.
        Column c = column("public.gender", new Domain(Domain.Kind.ENUM, "public.gender", List.of()));
        assertEquals(List.of("x"), FilterValues.bindAll(Engines.POSTGRESQL, c, "p.gender", new Filter("p.gender", FilterOp.EQ, "x")));
    }

    @Test
    void booleansTakeWordsAndDigits() throws Exception {
        Column flag = column("tinyint(1)", Domain.BOOLEAN);
        assertEquals(List.of(1, 0, 1, 0), FilterValues.bindAll(Engines.MYSQL, flag, "a.f",
                new Filter("a.f", FilterOp.IN, List.of(true, "no", "YES", 0))));
        Column real = new Column("f", 1, "boolean", false, null, null, List.of());
        assertEquals(List.of(true, false), FilterValues.bindAll(Engines.POSTGRESQL, real, "a.f",
                new Filter("a.f", FilterOp.IN, List.of("true", "0"))));
        assertEquals(ErrorKind.INVALID_ARGUMENT, assertThrows(CompileException.class, () -> FilterValues.check(flag, "a.f",
                new Filter("a.f", FilterOp.EQ, "maybe"))).problem());
    }

    @Test
    void postgresqlCastsQuoteEachPart() {
        assertEquals("CAST(? AS \"my\"\"schema\".\"Invoice Status\")", Engines.POSTGRESQL.castParameter("my\"schema.Invoice Status"));
        assertEquals("?", Engines.MYSQL.castParameter("billing.status"));
        assertEquals("?", Engines.SQLITE.castParameter("billing.status"));
    }
}
