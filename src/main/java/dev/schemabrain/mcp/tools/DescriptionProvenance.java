package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Provenance;

import java.util.Collection;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The provenance of an answer's descriptions, by its weakest one: the database's own comments are
 * schema facts (HIGH); the offline describer's sentences are heuristic inferences (MEDIUM); an LLM's
 * sentences are drafts a model suggested, named with the model, MEDIUM when the table had comments,
 * samples or foreign keys to go on and LOW otherwise. The confidence is the weakest
 * description's.
 */
final class DescriptionProvenance {

    /** What an answer says about the descriptions it shows. */
    record Shown(Provenance provenance, Confidence confidence) {
    }

    private DescriptionProvenance() {
    }

    static Shown of(Collection<Description> descriptions) {
        Confidence confidence = Confidence.worst(descriptions.stream().map(DescriptionProvenance::confidence).toList())
                .orElse(Confidence.HIGH);
        if (descriptions.stream().anyMatch(d -> d.origin() == DescriptionOrigin.LLM)) {
            return new Shown(new Provenance(Provenance.Source.LLM, models(descriptions), null,
                    InferenceMethod.LLM_SUGGESTED, ValidationState.DRAFT), confidence);
        }
        boolean heuristic = descriptions.stream().anyMatch(d -> d.origin() == DescriptionOrigin.HEURISTIC);
        return new Shown(heuristic
                ? new Provenance(Provenance.Source.INFERRED, null, null, InferenceMethod.HEURISTIC, ValidationState.APPLIED)
                : Provenance.schema(InferenceMethod.DB_COMMENT), confidence);
    }

    /**
     * For a part of an answer whose envelope provenance speaks of something else (a retrieval hit, an
     * entity): adds {@code description_provenance} when a model wrote any description it shows.
     */
    static void annotate(ObjectNode node, Collection<Description> shown) {
        if (shown.stream().noneMatch(d -> d.origin() == DescriptionOrigin.LLM)) {
            return;
        }
        Shown s = of(shown);
        ObjectNode p = Replies.JSON.valueToTree(s.provenance());
        p.put("confidence", s.confidence().name());
        node.set("description_provenance", p);
    }

    private static Confidence confidence(Description d) {
        return switch (d.origin()) {
            case DB_COMMENT -> Provenance.schema(InferenceMethod.DB_COMMENT).confidence();
            case HEURISTIC -> Confidence.derive(ValidationState.APPLIED, InferenceMethod.HEURISTIC);
            // A draft whose model the store did not record gets the plain draft rule (LOW).
            case LLM -> d.draft() != null && d.draft().grounded() ? Confidence.MEDIUM
                    : Confidence.derive(ValidationState.DRAFT, InferenceMethod.LLM_SUGGESTED);
        };
    }

    /** The model of the LLM descriptions (one per table; several only when an answer spans tables); null if unknown. */
    private static String models(Collection<Description> descriptions) {
        String models = descriptions.stream().map(Description::draft).filter(Objects::nonNull)
                .map(Description.LlmDraft::model).distinct().sorted().collect(Collectors.joining(", "));
        return models.isEmpty() ? null : models;
    }
}
