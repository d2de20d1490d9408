package dev.schemabrain.catalog;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TypeClassTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', value = {
            "enum('a','b')|CATEGORICAL",
            "ENUM('draft','open')|CATEGORICAL",
            "set('x','y')|CATEGORICAL",
            "tinyint(1)|BOOLEAN",
            "tinyint(1) unsigned|BOOLEAN",
            "tinyint(4)|NUMBER",
            "bit(1)|BOOLEAN",
            "bit(8)|OTHER",
            "boolean|BOOLEAN",
            "billing_interval|OTHER",
            "billing.invoice_status|OTHER",
            "character varying(20)|TEXT",
            "varchar(255)|TEXT",
            "text|TEXT",
            "timestamp with time zone|TEMPORAL",
            "timestamp(6) without time zone|TEMPORAL",
            "datetime(3)|TEMPORAL",
            "date|TEMPORAL",
            "time|TEMPORAL",
            "int(11) unsigned|NUMBER",
            "bigint|NUMBER",
            "double precision|NUMBER",
            "decimal(10,2)|NUMBER",
            "numeric(12, 2)|NUMBER",
            "INTEGER|NUMBER",
            "UNSIGNED BIG INT|NUMBER",
            "interval|OTHER",
            "interval day to second|OTHER",
            "point|OTHER",
            "integer[]|OTHER",
            "character varying[]|OTHER",
            "uuid|TEXT",
            "jsonb|TEXT",
            "blob|OTHER",
    })
    void classifiesTypeNames(String type, TypeClass expected) {
        assertEquals(expected, TypeClass.of(type));
    }

    @Test
    void aDomainDecidesBeforeTheTypeName() {
        Column status = new Column("status", 1, "billing.invoice_status", false, null, null, List.of())
                .withDomain(new Domain(Domain.Kind.ENUM, "billing.invoice_status", List.of("draft", "paid")));
        assertEquals(TypeClass.CATEGORICAL, TypeClass.of(status));
        Column flag = new Column("is_test", 2, "tinyint(1)", false, null, null, List.of()).withDomain(Domain.BOOLEAN);
        assertEquals(TypeClass.BOOLEAN, TypeClass.of(flag));
        Column checked = new Column("status", 3, "TEXT", false, null, null, List.of())
                .withDomain(new Domain(Domain.Kind.CHECK, null, List.of("a")));
        assertEquals(TypeClass.CATEGORICAL, TypeClass.of(checked));
    }

    @Test
    void readsMySqlColumnTypes() {
        assertEquals(Optional.of(new Domain(Domain.Kind.ENUM, null, List.of("draft", "it's", "a,b"))),
                Domain.ofMySqlColumnType("enum('draft','it''s','a,b')"));
        assertEquals(Optional.of(new Domain(Domain.Kind.SET, null, List.of("x", "y"))), Domain.ofMySqlColumnType("set('x','y')"));
        assertEquals(Optional.of(Domain.BOOLEAN), Domain.ofMySqlColumnType("tinyint(1)"));
        assertEquals(Optional.empty(), Domain.ofMySqlColumnType("tinyint(4)"));
        assertEquals(Optional.empty(), Domain.ofMySqlColumnType("settings_type"));
        assertEquals(Optional.empty(), Domain.ofMySqlColumnType("varchar(10)"));
    }

    @Test
    void acceptsADeclaredSpellingInAnyCase() {
        Domain d = new Domain(Domain.Kind.ENUM, null, List.of("paid", "Void"));
        assertEquals(Optional.of("paid"), d.spelling("PAID"));
        assertEquals(Optional.of("Void"), d.spelling("void"));
        assertEquals(Optional.empty(), d.spelling("pais"));
    }
}
