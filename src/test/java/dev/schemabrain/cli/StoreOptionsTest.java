package dev.schemabrain.cli;

import dev.schemabrain.testing.InProcessCli;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --store with a PostgreSQL URL on a real server: the password is warned about once and shown nowhere. */
class StoreOptionsTest {

    @Test
    void aPasswordInTheStoreUrlIsWarnedAboutAndNeverShown() throws Exception {
        String role = TestPostgres.passwordRole();
        String url = "postgresql://" + role + ":right-password@127.0.0.1:" + TestPostgres.port()
                + "/postgres?schema=sb_options_" + ProcessHandle.current().pid();
        InProcessCli.Result typed = InProcessCli.run("--store", url, "token", "list");
        assertEquals(0, typed.exitCode(), typed.stderr());
        assertEquals(1, typed.stderr().split("store URL holds a password", -1).length - 1, typed.stderr());
        assertFalse((typed.stdout() + typed.stderr()).contains("right-password"));

        InProcessCli.Result fromEnv = InProcessCli.run(Map.of("SB_STORE", url), "--store-url-env", "SB_STORE", "token", "list");
        assertEquals(0, fromEnv.exitCode(), fromEnv.stderr());
        assertFalse(fromEnv.stderr().contains("warning"), fromEnv.stderr());

        InProcessCli.Result wrong = InProcessCli.run("--store", url.replace("right-password", "wrong-password"), "token", "list");
        assertEquals(2, wrong.exitCode());
        assertTrue(wrong.stderr().contains("Cannot reach the PostgreSQL store postgresql://127.0.0.1:"), wrong.stderr());
        assertFalse(wrong.stderr().contains("wrong-password"), wrong.stderr());
    }
}
