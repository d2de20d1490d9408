package dev.schemabrain.engine.mysql;

import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.UniqueConstraint;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SHOW CREATE TABLE texts the local MariaDB does not print but MySQL 8 or another sql_mode does: descending and
 * functional key parts, ANSI_QUOTES, bare names, parentheses and commas inside a comment. SelectOnlyKeysTest checks
 * the parser against the live server's own output.
 */
class CreateTableKeysTest {

    @Test
    void mySql8KeyPartsAndAFunctionalIndex() {
        CreateTableKeys keys = CreateTableKeys.parse("""
                CREATE TABLE `events` (
                  `id` bigint NOT NULL AUTO_INCREMENT,
                  `account_id` int NOT NULL,
                  `email` varchar(200) NOT NULL COMMENT 'login (lower case), unique',
                  PRIMARY KEY (`id` DESC) USING BTREE,
                  UNIQUE KEY `uq_email_prefix` (`email`(20),`account_id`),
                  UNIQUE KEY `uq_lower` ((lower(`email`))),
                  KEY `by_account` (`account_id`),
                  CONSTRAINT `fk_events_account` FOREIGN KEY (`account_id`) REFERENCES `crm`.`accounts` (`id`) ON DELETE CASCADE,
                  CONSTRAINT `positive` CHECK ((`account_id` > 0))
                ) ENGINE=InnoDB COMMENT='a (b, c)'
                """, "app");
        assertEquals(List.of("id"), keys.primaryKey());
        assertEquals(List.of(new UniqueConstraint("uq_email_prefix", List.of("email", "account_id"))), keys.uniques());
        assertEquals(List.of(new ForeignKey("fk_events_account", List.of("account_id"), QualifiedName.of("crm", "accounts"),
                List.of("id"))), keys.foreignKeys());
    }

    @Test
    void ansiQuotesAndBareNames() {
        CreateTableKeys quoted = CreateTableKeys.parse("""
                CREATE TABLE "line items" (
                  "order id" int NOT NULL,
                  "no" int NOT NULL,
                  PRIMARY KEY ("order id","no"),
                  CONSTRAINT "fk ""x"" y" FOREIGN KEY ("order id") REFERENCES "orders" ("id")
                )
                """, "shop");
        assertEquals(List.of("order id", "no"), quoted.primaryKey());
        assertEquals(List.of(new ForeignKey("fk \"x\" y", List.of("order id"), QualifiedName.of("shop", "orders"), List.of("id"))),
                quoted.foreignKeys());
        CreateTableKeys bare = CreateTableKeys.parse("""
                CREATE TABLE items (
                  order_id int NOT NULL,
                  UNIQUE (order_id),
                  FOREIGN KEY fk_items_order (order_id) REFERENCES orders (id)
                )
                """, "shop");
        assertEquals(List.of(new UniqueConstraint(null, List.of("order_id"))), bare.uniques());
        assertEquals("fk_items_order", bare.foreignKeys().get(0).name());
    }
}
