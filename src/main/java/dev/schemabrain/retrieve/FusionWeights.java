package dev.schemabrain.retrieve;

import dev.schemabrain.embed.StaticEmbedder;

/**
 * The weights {@link HybridRetriever} fuses its signals with, per embedding model: a model's cosines spread
 * differently (the static table's are flatter and higher than bge-small's), so each gets its own profile and tuning
 * one cannot move the other's figures.
 *
 * @param lexical       weight of BM25 (min-max normalized over the candidates)
 * @param column        weight of the best column cosine
 * @param table         weight of the table's own cosine
 * @param neighbour     share of the best foreign-key neighbour's fused score a table gains
 * @param schema        share of the best score in its schema a table gains
 * @param value         added to a table holding a value the question names (a phrase of two words or more)
 * @param oneWordValue  a one-word value's strength relative to a phrase
 * @param valueReferrer added to a table whose foreign key points at a table holding a named value (it filters its rows)
 * @param money         added to a table recording money when the question asks about money
 * @param twoSteps      taken from a table two foreign-key steps from the nearest table holding a named value
 * @param far           taken from a table of that schema not joined to one within two steps ({@link ValueDistance})
 * @param cosineLow     the model's cosine between a question and a non-matching description
 * @param cosineHigh    the model's cosine between a question and a matching description
 */
public record FusionWeights(double lexical, double column, double table, double neighbour, double schema, double value,
                            double oneWordValue, double valueReferrer, double money, double twoSteps, double far,
                            double cosineLow, double cosineHigh) {

    /** bge-small-en-v1.5, chosen on half of the Spider dev databases and checked on the other half. */
    public static final FusionWeights BGE_SMALL = new FusionWeights(0.5, 0.5, 0.8, 0.3, 0.25, 0.8, 0.6, 0.2, 0.8,
            ValueDistance.TWO_STEPS, ValueDistance.FAR, 0.60, 0.75);

    /**
     * The static table distilled from bge-small ({@link StaticEmbedder}): its cosines rank less sharply, so BM25,
     * named values and money weigh more and a foreign-key neighbour less; a value's two-step neighbours keep their
     * place (the table that says who or how much is often two joins from the value). The cosine levels are bge-small's
     * at the same percentiles of Spider dev's matching and non-matching tables. Chosen on Spider dev and the golden,
     * value and money sets; figures in docs/architecture.md.
     */
    public static final FusionWeights STATIC = new FusionWeights(0.85, 0.55, 0.8, 0.15, 0.45, 1.2, 0.6, 0.45, 0.9,
            0.0, 0.5, 0.50, 0.73);

    /** The profile of the model with this identity; bge-small's for any other. */
    public static FusionWeights forModel(String modelId) {
        return StaticEmbedder.MODEL_ID.equals(modelId) ? STATIC : BGE_SMALL;
    }
}
