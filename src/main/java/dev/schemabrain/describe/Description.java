package dev.schemabrain.describe;

import java.util.Objects;

/**
 * One sentence about a table or column, with where it came from.
 *
 * @param draft for a model's sentence, which model drafted it and on what (null otherwise, or when the store
 *              kept no record of it)
 */
public record Description(String text, DescriptionOrigin origin, LlmDraft draft) {

    public Description {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(origin, "origin");
        if (draft != null && origin != DescriptionOrigin.LLM) {
            throw new IllegalArgumentException("only an LLM description has a drafting model");
        }
    }

    public Description(String text, DescriptionOrigin origin) {
        this(text, origin, null);
    }

    /**
     * The model behind an LLM description.
     *
     * @param model    the model id, cleaned by {@link #cleanModel} so an endpoint's answer cannot put control
     *                 characters or an unbounded string into an agent's answer
     * @param grounded whether the table had comments, samples or foreign keys to go on (MEDIUM), else LOW
     */
    public record LlmDraft(String model, boolean grounded) {

        public static final int MAX_MODEL_CHARS = 100;

        public LlmDraft {
            model = cleanModel(model);
            if (model == null) {
                throw new IllegalArgumentException("a drafting model needs a name");
            }
        }

        /**
         * Control and format characters become spaces, runs of white space one space, and anything past
         * {@value #MAX_MODEL_CHARS} characters is cut (with an ellipsis); null when nothing is left.
         */
        public static String cleanModel(String raw) {
            if (raw == null) {
                return null;
            }
            String s = raw.replaceAll("[\\p{Cntrl}\\p{Cf}]", " ").replaceAll("\\s+", " ").strip();
            if (s.length() > MAX_MODEL_CHARS) {
                int cut = MAX_MODEL_CHARS - 1;
                if (Character.isHighSurrogate(s.charAt(cut - 1))) {
                    cut--;   // never half a character
                }
                s = s.substring(0, cut).strip() + "…";
            }
            return s.isEmpty() ? null : s;
        }
    }
}
