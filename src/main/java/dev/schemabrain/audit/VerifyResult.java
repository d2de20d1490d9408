package dev.schemabrain.audit;

import java.util.OptionalLong;

/**
 * The outcome of recomputing the chain.
 *
 * @param firstBadId the first row that does not verify, when the chain is broken
 * @param problem    what is wrong with that row, or null
 */
public record VerifyResult(boolean intact, long rowsChecked, OptionalLong firstBadId, String problem) {

    static VerifyResult intact(long rows) {
        return new VerifyResult(true, rows, OptionalLong.empty(), null);
    }

    static VerifyResult broken(long rows, long id, String problem) {
        return new VerifyResult(false, rows, OptionalLong.of(id), problem);
    }
}
