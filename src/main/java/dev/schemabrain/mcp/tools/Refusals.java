package dev.schemabrain.mcp.tools;

import dev.schemabrain.gate.Refused;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;

/** A gate's refusal as the error envelope every tool answers with: the one place a decision becomes wire format. */
final class Refusals {

    private Refusals() {
    }

    static Envelope envelope(Refused r) {
        Recovery recovery = new Recovery(r.tool(), r.args(), r.fuzzyMatches(), r.rewrite(), r.widening());
        return Envelope.error(new ToolError(r.kind(), r.message(), recovery, r.piiCategories()), r.followUps());
    }
}
