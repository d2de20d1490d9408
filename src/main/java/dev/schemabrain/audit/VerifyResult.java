package dev.schemabrain.audit;

import java.util.List;
import java.util.OptionalLong;

/**
 * The outcome of verifying the log.
 *
 * @param firstBadId the first row that does not verify, when the problem is in a row
 * @param problem    what is wrong (a clause), or null when intact
 * @param warnings   what is not tampering but worth knowing (a call started without a recorded outcome)
 */
public record VerifyResult(boolean intact, long rowsChecked, OptionalLong firstBadId, String problem, List<String> warnings) {

    public VerifyResult {
        warnings = List.copyOf(warnings);
    }

    static VerifyResult intact(long rows, List<String> warnings) {
        return new VerifyResult(true, rows, OptionalLong.empty(), null, warnings);
    }

    static VerifyResult broken(long rows, long id, String problem) {
        return new VerifyResult(false, rows, OptionalLong.of(id), problem, List.of());
    }

    /** Broken as a whole (a missing file, a witness the log is behind), not at one row. */
    static VerifyResult broken(long rows, String problem) {
        return new VerifyResult(false, rows, OptionalLong.empty(), problem, List.of());
    }
}
