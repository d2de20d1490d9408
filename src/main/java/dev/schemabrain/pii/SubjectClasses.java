package dev.schemabrain.pii;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Every entity's subject class: the operator's where the policy names one, else the classifier's draft. */
public final class SubjectClasses {

    /** One entity's class, where it came from ({@code heuristic} or {@code operator}) and why. */
    public record Assigned(String entity, QualifiedName table, SubjectClass subjectClass, String origin, String evidence) {
    }

    private SubjectClasses() {
    }

    /** @param entities entity name → its table, in the order to list them */
    public static List<Assigned> assign(Map<String, Table> entities, PiiTags tags, SubjectPolicy policy) {
        List<Assigned> out = new ArrayList<>();
        entities.forEach((entity, table) -> {
            SubjectClass named = policy.classes().get(entity);
            if (named != null) {
                out.add(new Assigned(entity, table.name(), named, "operator", "pii_policy.yaml subjects"));
            } else {
                SubjectClassifier.Draft d = SubjectClassifier.draft(table, tags);
                out.add(new Assigned(entity, table.name(), d.subjectClass(), "heuristic", d.evidence()));
            }
        });
        return out;
    }
}
