package dev.schemabrain.audit;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The crash test's victim: appends to the audit log of the store given as argument until it is killed. */
public final class AppendForever {

    private AppendForever() {
    }

    public static void main(String[] args) throws Exception {
        try (AuditLog log = AuditLog.open(Path.of(args[0]), AuditLogTest.KEY, Optional.empty())) {
            for (long i = 0; ; i++) {
                log.append(new AuditEntry("src", "victim", "get_metric", AuditEntry.Phase.CALL, "success", null,
                        List.of("contact"), "h" + i, null, i, 1L));
                if (i == 20) {
                    System.out.println("appending");   // tells the test the burst is under way
                    System.out.flush();
                }
            }
        }
    }
}
