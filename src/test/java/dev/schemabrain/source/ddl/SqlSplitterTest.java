package dev.schemabrain.source.ddl;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlSplitterTest {

    @Test
    void splitsOnlyAtDelimitersOutsideQuotesCommentsAndBodies() {
        List<RawStatement> statements = SqlSplitter.split("""
                -- a; comment
                CREATE TABLE a (x text DEFAULT 'a;b', "odd;name" int); /* block; /* nested; */ still; */
                CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; SELECT 2; $body$ LANGUAGE sql;
                CREATE FUNCTION g() RETURNS int AS $$ SELECT $1; $$ LANGUAGE sql;
                SELECT 'last'""");
        assertEquals(4, statements.size());
        assertEquals("CREATE TABLE a (x text DEFAULT 'a;b', \"odd;name\" int)", statements.get(0).text());
        assertEquals(2, statements.get(0).line());
        assertTrue(statements.get(1).text().endsWith("$body$ LANGUAGE sql"));
        assertEquals(3, statements.get(1).line());
        assertEquals(5, statements.get(3).line());
    }

    @Test
    void skipsPsqlMetaCommandsAndCopyData() {
        List<RawStatement> statements = SqlSplitter.split("""
                \\connect shop
                COPY t (a, b) FROM stdin;
                1\tx;y
                2\t'unbalanced
                \\.
                CREATE TABLE t (a int, b text);
                """);
        assertEquals(2, statements.size());
        assertTrue(statements.get(0).text().startsWith("COPY"));
        assertEquals("CREATE TABLE t (a int, b text)", statements.get(1).text());
        assertEquals(6, statements.get(1).line());
    }

    @Test
    void followsStandardConformingStringsAndMysqlEscapes() {
        List<RawStatement> postgres = SqlSplitter.split("""
                CREATE TABLE a (p text DEFAULT 'C:\\');
                SET standard_conforming_strings = off;
                CREATE TABLE b (q text DEFAULT 'it\\'s; fine');
                """);
        assertEquals(3, postgres.size());
        assertFalse(postgres.get(0).backslashEscapes());
        assertTrue(postgres.get(2).backslashEscapes());

        List<RawStatement> mysql = SqlSplitter.split("""
                CREATE TABLE `a` (`q` varchar(9) DEFAULT 'it\\'s; ok') ENGINE=InnoDB;
                DELIMITER ;;
                CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW BEGIN SET NEW.q = 'x'; END ;;
                DELIMITER ;
                /*!50001 CREATE VIEW `v` AS SELECT 1 AS `one` */;
                """);
        assertEquals(3, mysql.size());
        assertTrue(mysql.get(0).text().endsWith("ENGINE=InnoDB"));
        assertTrue(mysql.get(1).text().endsWith("END"));
        assertEquals("CREATE VIEW `v` AS SELECT 1 AS `one`", mysql.get(2).text());
    }
}
