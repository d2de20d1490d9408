package dev.schemabrain.auth;

import dev.schemabrain.access.AccessPolicy;
import dev.schemabrain.access.AccessPolicyFile;
import dev.schemabrain.access.Caller;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.testing.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A token's role and claims in both token homes, in stores and files written before roles, and on the CLI. */
class TokenRolesTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(TokenStoreTest.Home.class)
    void aTokensRoleAndClaimsComeBackWithItsCaller(TokenStoreTest.Home home) throws Exception {
        TokenStore store = home.open(dir);
        String sam = store.create("sam", Optional.of("support"), Map.of("employee_id", "3", "region", "emea,apac"));
        String plain = store.create("ci");
        TokenEntry entry = store.list().stream().filter(e -> e.name().equals("sam")).findFirst().orElseThrow();
        assertEquals(Optional.of("support"), entry.role());
        assertEquals(Map.of("employee_id", "3", "region", "emea,apac"), entry.claims());

        BearerTokens bearer = new BearerTokens(store);
        Verdict.Caller caller = (Verdict.Caller) bearer.check(sam);
        assertEquals(new Verdict.Caller("token:sam", List.of("support"), Map.of("employee_id", "3", "region", "emea,apac")),
                caller);
        assertEquals(new Verdict.Caller("token:ci"), bearer.check(plain));
        String disk = home.bytesOnDisk(dir);
        assertFalse(disk.contains(sam.substring(Tokens.PREFIX.length())), "the token is never stored");
    }

    @ParameterizedTest
    @EnumSource(TokenStoreTest.Home.class)
    void badRolesAndClaimsAreRefusedBeforeAnythingIsStored(TokenStoreTest.Home home) throws Exception {
        TokenStore store = home.open(dir);
        assertThrows(SchemaBrainException.class, () -> store.create("a", Optional.of("none"), Map.of()));
        assertThrows(SchemaBrainException.class, () -> store.create("a", Optional.of("two words"), Map.of()));
        assertThrows(SchemaBrainException.class, () -> store.create("a", Optional.empty(), Map.of("bad key", "1")));
        assertThrows(SchemaBrainException.class, () -> store.create("a", Optional.empty(), Map.of("k", "line\nbreak")));
        assertThrows(SchemaBrainException.class, () -> store.create("a", Optional.empty(), Map.of("k", "")));
        assertTrue(store.list().isEmpty());
    }

    @Test
    void aStoreWrittenBeforeRolesStillListsAndGainsThemOnTheNextWrite() throws Exception {
        Path db = dir.resolve("schemabrain.db");
        StoreTokens store = new StoreTokens(db);
        String old = store.create("old");
        // Back to the schema of the build before roles: V12, auth_tokens without role and claims.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE auth_tokens DROP COLUMN claims");
            st.execute("ALTER TABLE auth_tokens DROP COLUMN role");
            st.execute("ALTER TABLE semantic_objects DROP COLUMN reviewed_by");   // and V14's, which came after
            st.execute("ALTER TABLE semantic_objects DROP COLUMN reviewed_at");
            st.execute("DROP INDEX semantic_objects_by_state");   // and V15's
            st.execute("PRAGMA user_version = 12");
        }
        assertEquals(List.of("old"), store.list().stream().map(TokenEntry::name).toList());
        assertEquals(Optional.empty(), store.list().get(0).role());
        store.create("new", Optional.of("analyst"), Map.of("team", "7"));
        List<TokenEntry> both = store.list();
        assertEquals(List.of("new", "old"), both.stream().map(TokenEntry::name).toList());
        assertEquals(Optional.of("analyst"), both.get(0).role());
        assertEquals(new Verdict.Caller("token:old"), new BearerTokens(store).check(old), "the old token still lets in");
    }

    @Test
    void aStoreCopyKeepsEachTokensRoleAndCopiesAStoreWrittenBeforeRoles() throws Exception {
        Path from = dir.resolve("from.db");
        StoreTokens source = new StoreTokens(from);
        String sam = source.create("sam", Optional.of("support"), Map.of("employee_id", "3"));
        InProcessCli.Result copied = InProcessCli.run("store", "copy", "--from", from.toString(), "--to",
                dir.resolve("to.db").toString());
        assertEquals(0, copied.exitCode(), copied.stderr());
        StoreTokens target = new StoreTokens(dir.resolve("to.db"));
        assertEquals(new Verdict.Caller("token:sam", List.of("support"), Map.of("employee_id", "3")),
                new BearerTokens(target).check(sam), "a copy that dropped the role would change what sam reaches");

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + from); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE auth_tokens DROP COLUMN claims");
            st.execute("ALTER TABLE auth_tokens DROP COLUMN role");
            st.execute("ALTER TABLE semantic_objects DROP COLUMN reviewed_by");   // and V14's, which came after
            st.execute("ALTER TABLE semantic_objects DROP COLUMN reviewed_at");
            st.execute("DROP INDEX semantic_objects_by_state");   // and V15's
            st.execute("PRAGMA user_version = 12");
        }
        InProcessCli.Result old = InProcessCli.run("store", "copy", "--from", from.toString(), "--to",
                dir.resolve("old.db").toString());
        assertEquals(0, old.exitCode(), old.stderr());
        assertEquals(new Verdict.Caller("token:sam"), new BearerTokens(new StoreTokens(dir.resolve("old.db"))).check(sam));
    }

    @Test
    void aTokensFileWrittenBeforeRolesReadsAsTokensWithout() throws Exception {
        Path file = dir.resolve("tokens.json");
        Files.writeString(file, "{\"version\":1,\"tokens\":[{\"name\":\"old\",\"created_at\":\"2026-01-01T00:00:00Z\","
                + "\"sha256\":\"" + Tokens.hash("sbt_x") + "\"}]}");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        FileTokens tokens = new FileTokens(file);
        assertEquals(Optional.empty(), tokens.list().get(0).role());
        tokens.create("new", Optional.of("analyst"), Map.of("team", "7"));
        assertEquals(new Verdict.Caller("token:old"), new BearerTokens(tokens).check("sbt_x"));
        String text = Files.readString(file);
        assertTrue(text.contains("\"role\" : \"analyst\""), text);
    }

    @Test
    void aCredentialsRoleIsTheFirstThePolicyDefines() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("version: 1\nroles:\n  analyst: {allow: [public.a]}\n"
                + "  support: {allow: [public.b]}\n", "p.yaml");
        Credential jwt = new Credential("jwt:i#s", List.of("staff", "support", "analyst"), Map.of());
        assertEquals(Optional.of("support"), jwt.caller(policy).role());
        Credential unknown = new Credential("jwt:i#s", List.of("staff", "admin"), Map.of());
        assertEquals(Optional.of("staff"), unknown.caller(policy).role(), "named, so the denial says which");
        assertTrue(policy.resolve(unknown.caller(policy)).denial().orElseThrow().contains("staff"));
        assertEquals(new Caller("jwt:i#s", Optional.empty(), Map.of()), new Credential("jwt:i#s", List.of(), Map.of()).caller(policy));
    }

    @Test
    void tokenListShowsRoleAndClaimsButNeverTheToken() throws Exception {
        Path store = dir.resolve("cli.db");
        InProcessCli.Result made = InProcessCli.run("--store", store.toString(), "token", "create", "sam", "--role", "support",
                "--claim", "employee_id=3", "--claim", "region=emea");
        assertEquals(0, made.exitCode(), made.stderr());
        String token = made.stdout().strip();
        InProcessCli.Result listed = InProcessCli.run("--store", store.toString(), "token", "list");
        assertEquals(0, listed.exitCode(), listed.stderr());
        assertTrue(listed.stdout().startsWith("sam\t"), listed.stdout());
        assertTrue(listed.stdout().contains("\trole=support\temployee_id=3,region=emea"), listed.stdout());
        assertFalse(listed.stdout().contains(token.substring(Tokens.PREFIX.length())), "the token is never shown");
        assertFalse(listed.stdout().contains(Tokens.hash(token)), "nor its hash");
        InProcessCli.Result bad = InProcessCli.run("--store", store.toString(), "token", "create", "x", "--role", "a b");
        assertEquals(2, bad.exitCode());
        assertEquals(1, bad.stderr().strip().lines().count(), bad.stderr());
    }
}
