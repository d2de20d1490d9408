package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.mcp.envelope.Provenance;

import java.util.Collection;

/**
 * The provenance of an answer's descriptions, by its weakest one: the database's own comments are
 * schema facts (HIGH); the offline describer's sentences are heuristic inferences (MEDIUM); an LLM's
 * sentences are drafts a model suggested (SPEC §10.6).
 */
final class DescriptionProvenance {

    private DescriptionProvenance() {
    }

    static Provenance of(Collection<Description> descriptions) {
        if (descriptions.stream().anyMatch(d -> d.origin() == DescriptionOrigin.LLM)) {
            return new Provenance(Provenance.Source.LLM, null, null, InferenceMethod.LLM_SUGGESTED, ValidationState.DRAFT);
        }
        boolean heuristic = descriptions.stream().anyMatch(d -> d.origin() == DescriptionOrigin.HEURISTIC);
        return heuristic
                ? new Provenance(Provenance.Source.INFERRED, null, null, InferenceMethod.HEURISTIC, ValidationState.APPLIED)
                : Provenance.schema(InferenceMethod.DB_COMMENT);
    }
}
