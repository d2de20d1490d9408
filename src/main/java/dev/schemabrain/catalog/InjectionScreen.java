package dev.schemabrain.catalog;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tells text that reads as instructions rather than as a description of data (a model's description, a table or
 * column comment): text that overrides instructions, addresses an agent or assistant, or tells the reader to call
 * tools. Descriptions and comments are
 * served to agents as trusted catalog text, so an injection planted in a comment or a sample value (and
 * repeated by the model) would reach them with SchemaBrain's authority. A description of data never needs any
 * of these; a refused answer keeps the offline text.
 */
public final class InjectionScreen {

    private static final List<Pattern> PATTERNS = List.of(
            // Overriding what the reader was told.
            Pattern.compile("\\b(ignore|disregard|forget|override|bypass)\\b[^.]{0,40}\\b(instructions?|prompts?|rules|guidelines|directions|guardrails|polic(y|ies))\\b"),
            Pattern.compile("\\b(previous|prior|above|earlier|system|developer)\\s+(instructions?|prompts?|messages?)\\b"),
            Pattern.compile("\\b(new|updated|real|actual)\\s+instructions?\\b"),
            Pattern.compile("\\b(jailbreak|prompt injection|system prompt)\\b"),
            // Addressed to a model or an agent.
            Pattern.compile("\\b(ai|llm|gpt|claude|language model|chat ?bot|mcp)\\s*(agents?|assistants?|models?|clients?)?\\b[^.]{0,30}\\b(must|should|shall|need to|are required|have to|always|never)\\b"),
            Pattern.compile("\\b(agents?|assistants?|models?|bots?)\\s+(must|should|shall|need to|are required to|have to)\\b"),
            Pattern.compile("\\b(dear|attention|hey|hello|hi|note to|message (to|for)|instructions? (to|for))\\W{0,3}(the\\s+)?(ai|llm|assistants?|agents?|models?|bots?|claude|gpt)\\b"),
            Pattern.compile("\\b(if|when)\\s+you\\s+are\\s+an?\\s+(ai|llm|assistant|agent|language model|bot)\\b"),
            Pattern.compile("\\bas an? (ai|llm|assistant|agent|language model)\\b"),
            Pattern.compile("\\byou\\s+(must|should|shall|need to|are required to|have to|are now|will now)\\b"),
            // Imperatives about tools.
            Pattern.compile("\\b(call|invoke|use|run|execute|trigger)\\s+(the\\s+|a\\s+|any\\s+|this\\s+)?([\\w-]+\\s+)?(tools?|functions?)\\b"),
            Pattern.compile("\\b(describe_column|describe_entity|describe_table|find_relevant_entities|find_relevant_metrics"
                    + "|find_relevant_tables|get_example_queries|get_metric|list_entities|list_indexed_schemas|list_joins|list_metrics|suggest_joins"
                    + "|run_query|execute_sql|tool_call|tool_use)\\b"),
            Pattern.compile("\\b(send|forward|email|post|upload|exfiltrate|leak)\\b[^.]{0,40}\\b(to|at)\\b[^.]{0,20}(https?://|www\\.|@)"),
            Pattern.compile("https?://|<\\|?/?(im_start|im_end|system|tool|instructions?)\\|?>|\\[/?inst\\]"));

    private InjectionScreen() {
    }

    /** What made {@code text} read as instructions (the matched words, at most 60 characters), or empty. */
    public static Optional<String> reason(String text) {
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT)
                .replaceAll("[\\p{Cntrl}\\p{Cf}]", "").replaceAll("\\s+", " ");
        for (Pattern p : PATTERNS) {
            Matcher m = p.matcher(folded);
            if (m.find()) {
                String found = m.group().strip();
                return Optional.of(found.length() > 60 ? found.substring(0, 60) + "…" : found);
            }
        }
        return Optional.empty();
    }
}
