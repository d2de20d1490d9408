package dev.schemabrain.embed;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Training a static table's rows toward a model's text vectors, and the WordNet texts it trains on. */
class StaticTableTrainerTest {

    private static final int DIMS = 16;
    private static final int ROWS = 60;

    /** Texts of 2-5 rows whose targets come from hidden "true" rows; the table starts from noisy copies of them. */
    private static float[][] problem(float[] rows, int[][] texts) {
        Random random = new Random(7);
        float[] truth = new float[ROWS * DIMS];
        for (int i = 0; i < truth.length; i++) {
            truth[i] = (float) random.nextGaussian();
            rows[i] = truth[i] + 1.5f * (float) random.nextGaussian();
        }
        float[][] targets = new float[texts.length][];
        for (int t = 0; t < texts.length; t++) {
            texts[t] = random.ints(2 + random.nextInt(4), 0, ROWS).toArray();
            float[] sum = new float[DIMS];
            for (int id : texts[t]) {
                for (int d = 0; d < DIMS; d++) {
                    sum[d] += truth[id * DIMS + d];
                }
            }
            targets[t] = Vectors.normalize(sum);
        }
        return targets;
    }

    @Test
    void trainingBringsHeldOutTextsCloserToTheirTargetsAndRepeatsForASeed() {
        int[][] texts = new int[3_000][];
        float[] rows = new float[ROWS * DIMS];
        float[][] targets = problem(rows, texts);
        float[] again = rows.clone();
        StaticTableTrainer.Settings settings = new StaticTableTrainer.Settings(10, 0.02f, 0.1, 42);
        StaticTableTrainer.Result result = StaticTableTrainer.train(rows, DIMS, texts, targets, settings);
        assertTrue(result.after() > result.before() + 0.1 && result.after() > 0.95,
                "held-out cosine " + result.before() + " -> " + result.after());
        assertEquals(ROWS, result.rows().cardinality(), "every row is in some training text");
        StaticTableTrainer.train(again, DIMS, texts, targets, settings);
        assertArrayEquals(rows, again, "the same seed trains the same rows");
    }

    @Test
    void aRowNoTrainingTextHoldsIsLeftAsItWas() {
        int[][] texts = {{0, 1}, {1, 2}, {0, 2}, {0, 1, 2}};
        float[] rows = new float[4 * DIMS];
        Random random = new Random(3);
        for (int i = 0; i < rows.length; i++) {
            rows[i] = (float) random.nextGaussian();
        }
        float[] before = rows.clone();
        float[][] targets = new float[texts.length][];
        for (int t = 0; t < texts.length; t++) {
            targets[t] = Vectors.normalize(new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, (float) t});
        }
        StaticTableTrainer.Result result = StaticTableTrainer.train(rows, DIMS, texts, targets,
                new StaticTableTrainer.Settings(3, 0.01f, 0, 1));
        assertEquals(Set.of(0, 1, 2), result.rows().stream().boxed().collect(Collectors.toSet()));
        for (int d = 0; d < DIMS; d++) {
            assertEquals(before[3 * DIMS + d], rows[3 * DIMS + d], "row 3 is in no text");
        }
    }

    @Test
    void aWordNetSynsetGivesItsWordsWithTheGlossItsWordsAloneAndEachExample() {
        Set<String> texts = new LinkedHashSet<>();
        StaticTableTrainer.synset("13423615 22 n 04 abrasion 0 attrition 0 corrasion 0 detrition 0 004 @ 13475538 n"
                + " 0000 + 01254031 v 0302 + 02648107 a 0201 + 01254031 v 0101 | erosion by friction  ", texts);
        StaticTableTrainer.synset("00001740 00 a 02 able(a) 0 capable 0 000 | (usually followed by `to') having the"
                + " necessary means or skill; \"able to swim\"; \"she was able to program her computer\"  ", texts);
        StaticTableTrainer.synset("07356970 11 n 01 attrition_rate 0 002 @ 07355887 n 0000 | the rate of shrinkage in"
                + " size or number  ", texts);
        StaticTableTrainer.synset("  1 This software and database is being provided to you", texts);
        assertEquals(List.of("abrasion, attrition, corrasion, detrition: erosion by friction",
                "abrasion, attrition, corrasion, detrition",
                "able, capable: (usually followed by `to') having the necessary means or skill",
                "able, capable", "able to swim", "she was able to program her computer",
                "attrition rate: the rate of shrinkage in size or number"), List.copyOf(texts));
    }
}
