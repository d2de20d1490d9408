package dev.schemabrain.engine.mysql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which servers' sessions the executor may reuse: those the driver resets with COM_RESET_CONNECTION. */
class MySqlResetTest {

    @Test
    void onlyMariaDbFrom10313IsReset() {
        assertTrue(MySqlEngine.resets("10.11.19-MariaDB-0+deb12u1"));
        assertTrue(MySqlEngine.resets("10.3.13-MariaDB"));
        assertTrue(MySqlEngine.resets("11.4.2-MariaDB"));
        assertFalse(MySqlEngine.resets("10.3.12-MariaDB"));
        assertFalse(MySqlEngine.resets("10.2.40-MariaDB"));
        assertFalse(MySqlEngine.resets("8.0.36"), "the driver does not reset a MySQL server's session");
        assertFalse(MySqlEngine.resets("5.5.5-10.11.6-MariaDB"), "a version prefix the parse does not trust");
    }
}
