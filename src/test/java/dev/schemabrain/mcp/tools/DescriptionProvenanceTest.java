package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.mcp.envelope.Provenance;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** An answer's provenance is its weakest description's: an LLM draft, then the offline describer, then comments. */
class DescriptionProvenanceTest {

    @Test
    void aModelsSentenceMakesTheAnswerAnLlmDraft() {
        Provenance p = DescriptionProvenance.of(List.of(new Description("Orders placed.", DescriptionOrigin.DB_COMMENT),
                new Description("The order status.", DescriptionOrigin.LLM),
                new Description("Identifier.", DescriptionOrigin.HEURISTIC)));
        assertEquals(Provenance.Source.LLM, p.source());
        assertEquals(InferenceMethod.LLM_SUGGESTED, p.inferenceMethod());
        assertEquals(ValidationState.DRAFT, p.validationState());
        assertEquals("llm", DescriptionOrigin.LLM.wireName());
        assertEquals(DescriptionOrigin.LLM, DescriptionOrigin.fromWire("llm"));
    }

    @Test
    void withoutAModelTheOfflineDescriberDecides() {
        Provenance p = DescriptionProvenance.of(List.of(new Description("Identifier.", DescriptionOrigin.HEURISTIC)));
        assertEquals(Provenance.Source.INFERRED, p.source());
        assertEquals(InferenceMethod.HEURISTIC, p.inferenceMethod());
    }
}
