package dev.schemabrain.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The caller's role and the row filters its statement carried, in the audit row and in what its hash covers
 *: a log written before roles still verifies, read as it is and after it gains the role columns;
 * a role changed, added or taken away breaks the chain.
 */
class AuditRolesTest {

    @TempDir
    Path dir;

    private Path store() {
        return dir.resolve("schemabrain.db");
    }

    private static AuditEntry plain(int n) {
        return new AuditEntry("src1", "token:ana", "describe_table", AuditEntry.Phase.CALL, "success", null, List.of(),
                "args" + n, null, null, 3L);
    }

    /** The log as the build before roles left it: its schema without the role columns. */
    private void backToBeforeRoles() throws Exception {
        AuditLogTest.tamper(AuditLog.fileFor(store()), "ALTER TABLE audit_log DROP COLUMN row_filters",
                "ALTER TABLE audit_log DROP COLUMN role");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + AuditLog.fileFor(store()))) {
            assertFalse(ChainRows.hasRoleColumns(c));
            assertNull(AuditSchema.problem(c, false), "the schema of the build before roles");
        }
    }

    private VerifyResult verify() throws Exception {
        return AuditLogTest.verify(store(), OptionalLong.empty());
    }

    @Test
    void aLogWrittenBeforeRolesVerifiesAndGainsThem() throws Exception {
        try (AuditLog log = AuditLog.open(store(), AuditLogTest.KEY, Optional.empty())) {
            for (int i = 0; i < 3; i++) {
                log.append(plain(i));
            }
        }
        backToBeforeRoles();
        assertTrue(verify().intact(), verify().toString());
        try (AuditLog log = AuditLog.openExisting(store())) {
            assertEquals(3, log.list(10, OptionalLong.empty()).size());
            assertEquals(List.of(), log.list(10, OptionalLong.empty(), List.of(), Optional.of("analyst")));
        }

        try (AuditLog log = AuditLog.open(store(), AuditLogTest.KEY, Optional.empty())) {
            log.append(plain(3).withRole("analyst", List.of()));
            log.append(plain(4).withRole("support", List.of("customer.support_rep_id")));
            log.append(plain(5).withRole("none", List.of()));
        }
        assertTrue(verify().intact(), verify().toString());
        try (AuditLog log = AuditLog.openExisting(store())) {
            List<AuditRecord> support = log.list(10, OptionalLong.empty(), List.of(), Optional.of("support"));
            assertEquals(1, support.size());
            assertEquals(5, support.get(0).id());
            assertEquals(List.of("customer.support_rep_id"), support.get(0).entry().rowFilters());
            assertNull(log.list(10, OptionalLong.empty()).get(0).entry().role(), "old rows have none");
        }
    }

    @Test
    void aRoleChangedAddedOrTakenAwayBreaksTheChain() throws Exception {
        try (AuditLog log = AuditLog.open(store(), AuditLogTest.KEY, Optional.empty())) {
            log.append(plain(0));
            log.append(plain(1).withRole("support", List.of("customer.support_rep_id")));
            log.append(plain(2));
        }
        assertTrue(verify().intact());
        Path file = AuditLog.fileFor(store());
        String[][] forgeries = {
                {"UPDATE audit_log SET role = 'analyst' WHERE id = 2", "2", "UPDATE audit_log SET role = 'support' WHERE id = 2"},
                {"UPDATE audit_log SET role = NULL WHERE id = 2", "2", "UPDATE audit_log SET role = 'support' WHERE id = 2"},
                {"UPDATE audit_log SET row_filters = NULL WHERE id = 2", "2",
                        "UPDATE audit_log SET row_filters = '[\"customer.support_rep_id\"]' WHERE id = 2"},
                {"UPDATE audit_log SET role = 'admin' WHERE id = 1", "1", "UPDATE audit_log SET role = NULL WHERE id = 1"},
        };
        for (String[] forgery : forgeries) {
            AuditLogTest.tamper(file, forgery[0]);
            VerifyResult r = verify();
            assertFalse(r.intact(), forgery[0]);
            assertEquals(OptionalLong.of(Long.parseLong(forgery[1])), r.firstBadId(), forgery[0] + ": " + r);
            AuditLogTest.tamper(file, forgery[2]);
            assertTrue(verify().intact(), "restored after " + forgery[0]);
        }
    }
}
