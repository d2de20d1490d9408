package dev.schemabrain.llm;

import dev.schemabrain.catalog.InjectionScreen;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Output hygiene: at most 300 characters, control characters stripped, unknown column
 * names ignored, missing or empty ones left to the offline describer; an answer any of whose texts reads as
 * instructions to an agent is refused whole (the model that wrote one was steered, so none of it is trusted).
 */
final class ReplyCheck {

    static final int MAX_CHARS = 300;

    private ReplyCheck() {
    }

    /**
     * @return the table's description (empty: keep the offline one) and the accepted column descriptions;
     * {@code refused}: why the whole answer was refused (then nothing else is set)
     */
    record Checked(Optional<String> table, Map<String, String> columns, Optional<String> refused) {
    }

    static Checked check(LlmReply reply, Set<String> knownColumns) {
        Map<String, String> columns = new LinkedHashMap<>();
        reply.columns().forEach((name, text) -> {
            if (knownColumns.contains(name)) {
                clean(text).ifPresent(t -> columns.put(name, t));
            }
        });
        Optional<String> table = reply.tableDescription() == null ? Optional.empty() : clean(reply.tableDescription());
        Optional<String> refused = table.flatMap(InjectionScreen::reason).map(r -> "the table description: \"" + r + "\"");
        for (Map.Entry<String, String> e : columns.entrySet()) {
            if (refused.isEmpty()) {
                refused = InjectionScreen.reason(e.getValue()).map(r -> "column " + e.getKey() + ": \"" + r + "\"");
            }
        }
        return refused.isPresent() ? new Checked(Optional.empty(), Map.of(), refused) : new Checked(table, columns, Optional.empty());
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
