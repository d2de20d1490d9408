package dev.schemabrain.pii;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The operator's word on data subjects in {@code pii_policy.yaml}, keyed by entity name:
 * <pre>
 * subjects:    {customer: person, account: organisation, actor: none}
 * subject_of:  {payment: customer}                 # whose fact a payment is, where two people are reachable
 * person_keys: {timesheet.employee_ref: employee}  # a person's key that has no foreign key
 * </pre>
 * Each overrides the drafted value and survives re-indexing.
 */
public record SubjectPolicy(Map<String, SubjectClass> classes, Map<String, String> subjectOf, Map<String, String> personKeys) {

    public static final SubjectPolicy NONE = new SubjectPolicy(Map.of(), Map.of(), Map.of());

    public SubjectPolicy {
        classes = Map.copyOf(classes);
        subjectOf = Map.copyOf(subjectOf);
        personKeys = Map.copyOf(personKeys);
    }

    public boolean isEmpty() {
        return classes.isEmpty() && subjectOf.isEmpty() && personKeys.isEmpty();
    }

    /** Reads the three keys from the policy's top level; absent keys are empty. */
    static SubjectPolicy parse(JsonNode root) {
        Map<String, SubjectClass> classes = new TreeMap<>();
        for (Map.Entry<String, String> e : strings(root.path("subjects"), "subjects", "{customer: person}").entrySet()) {
            try {
                classes.put(e.getKey(), SubjectClass.fromWireName(e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("subjects." + e.getKey() + " has an " + ex.getMessage());
            }
        }
        Map<String, String> subjectOf = strings(root.path("subject_of"), "subject_of", "{payment: customer}");
        Map<String, String> personKeys = strings(root.path("person_keys"), "person_keys", "{timesheet.employee_ref: employee}");
        for (String key : personKeys.keySet()) {
            if (key.indexOf('.') <= 0 || key.endsWith(".")) {
                throw new IllegalArgumentException("person_keys." + key + " must name entity.column");
            }
        }
        return new SubjectPolicy(classes, subjectOf, personKeys);
    }

    private static Map<String, String> strings(JsonNode node, String key, String example) {
        Map<String, String> out = new TreeMap<>();
        if (node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(key + " must be a mapping such as " + example);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual() || e.getValue().asText().isBlank()) {
                throw new IllegalArgumentException(key + "." + e.getKey() + " must be a name, as in " + example);
            }
            out.put(e.getKey(), e.getValue().asText().strip());
        }
        return out;
    }

    /** Writes the non-empty keys into {@code root}. */
    void write(ObjectNode root) {
        if (!classes.isEmpty()) {
            ObjectNode o = root.putObject("subjects");
            new TreeMap<>(classes).forEach((k, v) -> o.put(k, v.wireName()));
        }
        if (!subjectOf.isEmpty()) {
            ObjectNode o = root.putObject("subject_of");
            new TreeMap<>(subjectOf).forEach(o::put);
        }
        if (!personKeys.isEmpty()) {
            ObjectNode o = root.putObject("person_keys");
            new TreeMap<>(personKeys).forEach(o::put);
        }
    }
}
