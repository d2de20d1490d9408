package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.InferenceMethod;
import dev.schemabrain.catalog.ValidationState;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.mcp.envelope.Confidence;
import dev.schemabrain.mcp.envelope.Provenance;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An answer's provenance is its weakest description's: an LLM draft (with its model), then the offline
 * describer, then comments; its confidence is the weakest description's, an LLM draft's being the one
 * Description provenance derived at index time (MEDIUM grounded, LOW otherwise).
 */
class DescriptionProvenanceTest {

    private static final Description.LlmDraft GROUNDED = new Description.LlmDraft("claude-haiku-4-5", true);
    private static final Description.LlmDraft UNGROUNDED = new Description.LlmDraft("claude-haiku-4-5", false);

    @Test
    void aModelsSentenceMakesTheAnswerAnLlmDraftNamingTheModel() {
        DescriptionProvenance.Shown s = DescriptionProvenance.of(List.of(new Description("Orders placed.", DescriptionOrigin.DB_COMMENT),
                new Description("The order status.", DescriptionOrigin.LLM, GROUNDED),
                new Description("Identifier.", DescriptionOrigin.HEURISTIC)));
        Provenance p = s.provenance();
        assertEquals(Provenance.Source.LLM, p.source());
        assertEquals("claude-haiku-4-5", p.model());
        assertEquals(InferenceMethod.LLM_SUGGESTED, p.inferenceMethod());
        assertEquals(ValidationState.DRAFT, p.validationState());
        assertEquals(Confidence.MEDIUM, s.confidence(), "a grounded draft is MEDIUM, not the plain draft rule's LOW");
        assertEquals("llm", DescriptionOrigin.LLM.wireName());
        assertEquals(DescriptionOrigin.LLM, DescriptionOrigin.fromWire("llm"));
    }

    @Test
    void anUngroundedOrUnrecordedDraftIsLowAndTheWeakestDecides() {
        assertEquals(Confidence.LOW, DescriptionProvenance.of(List.of(new Description("a", DescriptionOrigin.LLM, GROUNDED),
                new Description("b", DescriptionOrigin.LLM, UNGROUNDED))).confidence());
        DescriptionProvenance.Shown unknown = DescriptionProvenance.of(List.of(new Description("a", DescriptionOrigin.LLM)));
        assertEquals(Confidence.LOW, unknown.confidence());
        assertNull(unknown.provenance().model());
        assertEquals(Confidence.HIGH, DescriptionProvenance.of(List.of(new Description("c", DescriptionOrigin.DB_COMMENT)))
                .confidence());
    }

    @Test
    void withoutAModelTheOfflineDescriberDecides() {
        DescriptionProvenance.Shown s = DescriptionProvenance.of(List.of(new Description("Identifier.", DescriptionOrigin.HEURISTIC)));
        assertEquals(Provenance.Source.INFERRED, s.provenance().source());
        assertEquals(InferenceMethod.HEURISTIC, s.provenance().inferenceMethod());
        assertEquals(Confidence.MEDIUM, s.confidence());
    }

    @Test
    void onlyAModelsDescriptionIsAnnotated() {
        ObjectNode plain = Replies.object();
        DescriptionProvenance.annotate(plain, List.of(new Description("Identifier.", DescriptionOrigin.HEURISTIC)));
        assertFalse(plain.has("description_provenance"));
        ObjectNode drafted = Replies.object();
        DescriptionProvenance.annotate(drafted, List.of(new Description("x", DescriptionOrigin.LLM, UNGROUNDED)));
        assertEquals("claude-haiku-4-5", drafted.path("description_provenance").path("model").asText());
        assertEquals("LOW", drafted.path("description_provenance").path("confidence").asText());
        assertEquals("draft", drafted.path("description_provenance").path("validation_state").asText());
    }

    @Test
    void aModelNameIsCleanedAndBounded() {
        String cleaned = Description.LlmDraft.cleanModel("llama3.1\u0000\u001b\u200b:8b\n" + "q".repeat(10_240));
        assertTrue(cleaned.length() <= Description.LlmDraft.MAX_MODEL_CHARS, "length " + cleaned.length());
        assertTrue(cleaned.startsWith("llama3.1 :8b q"), cleaned);
        assertTrue(cleaned.endsWith("…"));
        String emoji = Description.LlmDraft.cleanModel("m".repeat(98) + "😀😀😀");
        assertFalse(Character.isHighSurrogate(emoji.charAt(emoji.length() - 2)), "never half a character");
        assertNull(Description.LlmDraft.cleanModel("\u0000\t\u200b "));
        assertThrows(IllegalArgumentException.class, () -> new Description.LlmDraft("\u0007", true));
        assertThrows(IllegalArgumentException.class,
                () -> new Description("x", DescriptionOrigin.HEURISTIC, GROUNDED), "only a model's sentence has a model");
    }
}
