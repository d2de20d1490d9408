package dev.schemabrain.cli;

import dev.schemabrain.error.UserError;
import dev.schemabrain.pii.BlockList;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Optional;

/** {@code --pii-block} and {@code --force-pii-floor} as serve takes them, for commands that must agree with serve. */
final class BlockListOptions {

    @Option(names = "--pii-block", paramLabel = "CATEGORIES", split = ",",
            description = "The PII categories serve is given with --pii-block, comma-separated (default: the store's"
                    + " policy, else credential,payment_card,government_id).")
    List<String> piiBlock;

    @Option(names = "--force-pii-floor", description = "Allow --pii-block to leave out credential, payment_card or"
            + " government_id, as serve's flag of the same name does.")
    boolean forcePiiFloor;

    /** The block list given, or empty for the store's (else the floor). */
    Optional<BlockList> blockList() throws UserError {
        if (piiBlock == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(BlockList.parse(String.join(",", piiBlock), forcePiiFloor));
        } catch (IllegalArgumentException e) {
            throw new UserError("--pii-block: " + e.getMessage().replace("the force flag", "--force-pii-floor") + ".");
        }
    }
}
