package dev.schemabrain.engine.postgres;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Introspection of the bench sample databases on a real PostgreSQL. The expected figures were
 * counted independently on PostgreSQL 15 with information_schema (tables, views, columns, foreign
 * keys; partition children excluded) and pg_index (primary-key columns: sum of indnkeyatts).
 */
class PostgresSourceTest {

    static Catalog introspect(String database) throws SourceException {
        return new PostgresSource(SourceUrl.parse(TestPostgres.url(database))).introspect(IntrospectionOptions.fresh());
    }

    static int primaryKeyColumns(Catalog c) {
        return c.tables().stream().mapToInt(t -> t.primaryKey().size()).sum();
    }

    static long count(Catalog c, TableKind kind) {
        return c.tables().stream().filter(t -> t.kind() == kind).count();
    }

    static Table table(Catalog c, String name) {
        return c.table(QualifiedName.of("public", name)).orElseThrow(() -> new AssertionError("no table " + name));
    }

    @Test
    void chinookCountsKeysAndSamples() throws Exception {
        TestPostgres.loadSample("chinook", "chinook.sql");
        Catalog c = introspect("chinook");
        assertEquals(11, c.tables().size());
        assertEquals(64, c.columnCount());
        assertEquals(12, primaryKeyColumns(c));
        assertEquals(11, c.foreignKeyCount());

        Table playlistTrack = table(c, "playlist_track");
        assertEquals(List.of("playlist_id", "track_id"), playlistTrack.primaryKey());
        assertTrue(playlistTrack.isJunction(), "playlist_track links playlists and tracks");
        assertFalse(table(c, "invoice_line").isJunction());

        Table track = table(c, "track");
        assertEquals(3503L, track.rowEstimate());
        ForeignKey toAlbum = track.foreignKeys().stream().filter(fk -> fk.target().table().equals("album"))
                .findFirst().orElseThrow();
        assertEquals(List.of("album_id"), toAlbum.columns());
        assertEquals(List.of("album_id"), toAlbum.targetColumns());
        Column name = track.column("name").orElseThrow();
        assertFalse(name.nullable());
        assertEquals(5, name.samples().size());
        assertTrue(name.samples().stream().allMatch(s -> s.length() <= 50));

        Column email = table(c, "customer").column("email").orElseThrow();
        assertEquals(List.of("<email>"), email.samples(), "e-mail samples are redacted to their shape");
    }

    @Test
    void pagilaPartitionsAreFoldedIntoTheirParent() throws Exception {
        TestPostgres.loadSample("pagila", "pagila-pg15.sql");
        Catalog c = introspect("pagila");
        assertEquals(24, c.tables().size());
        assertEquals(16, count(c, TableKind.TABLE) + count(c, TableKind.PARTITIONED));
        assertEquals(7, count(c, TableKind.VIEW));
        assertEquals(1, count(c, TableKind.MATERIALIZED_VIEW));
        assertEquals(138, c.columnCount(), "136 in information_schema plus the materialized view's 2");
        assertEquals(19, primaryKeyColumns(c));
        assertEquals(22, c.foreignKeyCount(), "19 declared on ordinary tables plus payment's 3 shapes from 18 partition FKs");

        assertTrue(c.tables().stream().noneMatch(t -> t.name().table().startsWith("payment_p")));
        assertEquals(1, c.tables().stream().filter(t -> t.name().table().equals("payment")).count());
        Table payment = table(c, "payment");
        assertEquals(TableKind.PARTITIONED, payment.kind());
        assertEquals(List.of("customer", "rental", "staff"),
                payment.foreignKeys().stream().map(fk -> fk.target().table()).sorted().toList());

        assertTrue(table(c, "film_actor").isJunction());
        assertTrue(table(c, "film_category").isJunction());
        assertFalse(table(c, "rental").isJunction());
        assertEquals(6, c.tables().stream().mapToInt(t -> t.uniqueConstraints().size()).sum());
    }

    @Test
    void northwindAndSakila() throws Exception {
        TestPostgres.loadSample("northwind", "northwind.sql");
        Catalog northwind = introspect("northwind");
        assertEquals(14, northwind.tables().size());
        assertEquals(92, northwind.columnCount());
        assertEquals(17, primaryKeyColumns(northwind));
        assertEquals(13, northwind.foreignKeyCount());

        TestPostgres.loadSample("sakila", "sakila.sql");
        Catalog sakila = introspect("sakila");
        assertEquals(21, count(sakila, TableKind.TABLE));
        assertEquals(7, count(sakila, TableKind.VIEW));
        assertEquals(165, sakila.columnCount());
        assertEquals(17, primaryKeyColumns(sakila));
        assertEquals(40, sakila.foreignKeyCount());
        assertTrue(table(sakila, "film_actor").isJunction());
        assertTrue(table(sakila, "film_category").isJunction());
    }

    @Test
    void commentsDefaultsSensitiveColumnsAndSampleReuse() throws Exception {
        TestPostgres.createDatabase("pg_details",
                "CREATE TABLE account (id serial PRIMARY KEY, email text UNIQUE, password_hash text NOT NULL,"
                        + " plan text DEFAULT 'free', card text)",
                "COMMENT ON TABLE account IS 'People who can sign in'",
                "COMMENT ON COLUMN account.plan IS 'Billing plan name'",
                "INSERT INTO account (email, password_hash, plan, card) VALUES"
                        + " ('ann@example.com', '$2b$12$abcdefghijk', 'pro', '4111 1111 1111 1111'),"
                        + " ('bob@example.com', '$2b$12$lmnopqrstuv', 'free', '5500-0000-0000-0004')",
                "CREATE VIEW pro_accounts AS SELECT id, email FROM account WHERE plan = 'pro'");
        Catalog c = introspect("pg_details");
        Table account = table(c, "account");
        assertEquals("People who can sign in", account.comment());
        assertEquals("Billing plan name", account.column("plan").orElseThrow().comment());
        assertEquals("'free'::text", account.column("plan").orElseThrow().defaultValue());
        assertTrue(account.column("id").orElseThrow().defaultValue().startsWith("nextval("));
        assertEquals(List.of("email"), account.uniqueConstraints().get(0).columns());
        assertEquals(List.of(), account.column("password_hash").orElseThrow().samples(), "no samples for secrets");
        assertEquals(List.of("<card number>"), account.column("card").orElseThrow().samples());
        assertEquals(List.of("pro", "free"), account.column("plan").orElseThrow().samples());
        assertEquals(TableKind.VIEW, table(c, "pro_accounts").kind());
        assertNull(table(c, "pro_accounts").rowEstimate());

        // Same data version: the previous samples are reused, not read again.
        assertTrue(account.dataVersion() != null);
        Table doctored = account.withColumns(account.columns().stream()
                .map(col -> col.name().equals("plan") ? col.withSamples(List.of("from-the-store")) : col).toList());
        Catalog again = new PostgresSource(SourceUrl.parse(TestPostgres.url("pg_details")))
                .introspect(new IntrospectionOptions(true, name -> Optional.of(doctored).filter(t -> t.name().equals(name))));
        assertEquals(List.of("from-the-store"), table(again, "account").column("plan").orElseThrow().samples());
    }

    @Test
    void aWrongPasswordIsOneClearSentenceWithoutThePassword() throws Exception {
        String role = TestPostgres.passwordRole();
        SourceException wrongPassword = assertThrows(SourceException.class, () ->
                new PostgresSource(SourceUrl.parse("postgresql://" + role + ":not-the-password@127.0.0.1:"
                        + TestPostgres.port() + "/postgres")).introspect(IntrospectionOptions.fresh()));
        assertTrue(wrongPassword.getMessage().contains("refused the login"), wrongPassword.getMessage());
        assertFalse(wrongPassword.getMessage().contains("not-the-password"));
    }

    @Test
    void theRightPasswordLogsInAndReadsOnlyUserRelations() throws Exception {
        String role = TestPostgres.passwordRole();
        Catalog ok = new PostgresSource(SourceUrl.parse("postgresql://" + role + ":right-password@127.0.0.1:"
                + TestPostgres.port() + "/postgres")).introspect(IntrospectionOptions.fresh());
        assertTrue(ok.tables().stream().noneMatch(t -> t.name().schema().startsWith("pg_")),
                "the right password logs in and reads only user relations");
    }

    @Test
    void aMissingDatabaseIsNamed() {
        SourceException missingDb = assertThrows(SourceException.class, () -> introspect("no_such_database"));
        assertTrue(missingDb.getMessage().contains("'no_such_database' does not exist"), missingDb.getMessage());
    }

    @Test
    void aClosedPortIsUnreachable() {
        SourceException refused = assertThrows(SourceException.class, () ->
                new PostgresSource(SourceUrl.parse("postgresql://postgres@127.0.0.1:1/x")).introspect(IntrospectionOptions.fresh()));
        assertTrue(refused.getMessage().startsWith("Cannot reach the PostgreSQL server at 127.0.0.1:1"), refused.getMessage());
    }

    @Test
    void anUnknownHostIsNamed() {
        SourceException unknownHost = assertThrows(SourceException.class, () ->
                new PostgresSource(SourceUrl.parse("postgresql://postgres@no-such-host.invalid/x")).introspect(IntrospectionOptions.fresh()));
        assertTrue(unknownHost.getMessage().startsWith("Cannot resolve the PostgreSQL host 'no-such-host.invalid'"), unknownHost.getMessage());
    }
}
