package dev.schemabrain.llm;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Output hygiene (SPEC §10.6): at most 300 characters, control characters stripped, unknown column
 * names ignored, missing or empty ones left to the offline describer.
 */
final class ReplyCheck {

    static final int MAX_CHARS = 300;

    private ReplyCheck() {
    }

    /** @return the table's description (empty: keep the offline one) and the accepted column descriptions */
    record Checked(Optional<String> table, Map<String, String> columns) {
    }

    static Checked check(LlmReply reply, Set<String> knownColumns) {
        Map<String, String> columns = new LinkedHashMap<>();
        reply.columns().forEach((name, text) -> {
            if (knownColumns.contains(name)) {
                clean(text).ifPresent(t -> columns.put(name, t));
            }
        });
        return new Checked(reply.tableDescription() == null ? Optional.empty() : clean(reply.tableDescription()), columns);
    }

    static Optional<String> clean(String text) {
        String stripped = text.replaceAll("[\\p{Cntrl}\\p{Cf}]", " ").replaceAll("\\s+", " ").strip();
        if (stripped.length() > MAX_CHARS) {
            int cut = stripped.lastIndexOf(' ', MAX_CHARS - 1);
            stripped = stripped.substring(0, cut > MAX_CHARS / 2 ? cut : MAX_CHARS - 1).strip() + "…";
        }
        return stripped.isEmpty() ? Optional.empty() : Optional.of(stripped);
    }
}
