package dev.schemabrain.retrieve;

import dev.schemabrain.embed.OnnxEmbedder;
import dev.schemabrain.embed.StaticEmbedder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Each embedder's store is searched with its own weights; bge-small's are the ones its figures were measured with. */
class FusionWeightsTest {

    @Test
    void theModelIdPicksTheProfile() {
        assertSame(FusionWeights.STATIC, FusionWeights.forModel(StaticEmbedder.MODEL_ID));
        assertSame(FusionWeights.BGE_SMALL, FusionWeights.forModel(OnnxEmbedder.MODEL_ID));
        assertSame(FusionWeights.BGE_SMALL, FusionWeights.forModel("some-other-model"));
    }

    @Test
    void bgeSmallKeepsItsWeights() {
        assertEquals(new FusionWeights(0.5, 0.5, 0.8, 0.3, 0.25, 0.8, 0.6, 0.2, 0.8, ValueDistance.TWO_STEPS,
                ValueDistance.FAR, 0.60, 0.75), FusionWeights.BGE_SMALL);
    }
}
