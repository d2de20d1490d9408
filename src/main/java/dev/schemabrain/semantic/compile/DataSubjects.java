package dev.schemabrain.semantic.compile;

import java.util.Map;
import java.util.Set;

/**
 * The data subjects as the compiler sees them, by entity name: which entities are people and
 * which organisations (decided outside the compiler, by the classifier and the operator), whose fact an entity
 * is where the operator said so, and the person keys that have no foreign key ({@code timesheet.employee_ref}).
 *
 * @param subjectOf  entity → the person entity its rows are about (the operator's {@code subject_of})
 * @param personKeys {@code entity.column} → the person entity whose key the column holds
 */
public record DataSubjects(Set<String> people, Set<String> organisations, Map<String, String> subjectOf,
                           Map<String, String> personKeys) {

    public static final DataSubjects NONE = new DataSubjects(Set.of(), Set.of(), Map.of(), Map.of());

    public DataSubjects {
        people = Set.copyOf(people);
        organisations = Set.copyOf(organisations);
        subjectOf = Map.copyOf(subjectOf);
        personKeys = Map.copyOf(personKeys);
    }
}
