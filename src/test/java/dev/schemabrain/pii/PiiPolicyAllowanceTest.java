package dev.schemabrain.pii;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Allowances in pii_policy.yaml: parsed strictly, written back in the same shape, never on a floor category. */
class PiiPolicyAllowanceTest {

    @Test
    void allowancesParseAndRoundTrip() {
        PiiPolicy policy = PiiPolicy.parse("""
                columns:
                  public.employee.last_name: {categories: [contact], allow: [group_by]}
                  public.employee.birth_date: {categories: [demographic_protected], allow: [time_dimension, min_max]}
                  public.employee.email: {categories: [contact]}
                """);
        assertEquals(Set.of(Allowance.TIME_DIMENSION, Allowance.MIN_MAX), policy.columns().get(0).allow());
        assertEquals(Set.of(), policy.columns().get(1).allow());
        assertEquals(Set.of(Allowance.GROUP_BY), policy.columns().get(2).allow());
        String yaml = policy.toYaml();
        assertTrue(yaml.contains("allow:"), yaml);
        assertEquals(policy.columns(), PiiPolicy.parse(yaml).columns(), yaml);
    }

    @Test
    void badAllowancesAreOneSentenceEach() {
        for (String[] bad : new String[][]{
                {"columns:\n  a.b.c: {categories: [contact], allow: [peek]}\n",
                        "column a.b.c has an unknown allowance 'peek'; the allowances are group_by, filter_eq, filter_range, min_max, time_dimension"},
                {"columns:\n  a.b.c: {categories: [contact], allow: group_by}\n", "column a.b.c allow must be a list"},
                {"columns:\n  a.b.c: {categories: [contact], allow: [[group_by]]}\n", "column a.b.c allow must list names"},
                {"columns:\n  a.b.ssn: {categories: [government_id], allow: [filter_eq]}\n",
                        "column a.b.ssn is tagged government_id, which is always blocked, so allow cannot apply to it"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PiiPolicy.parse(bad[0]), bad[0]);
            assertTrue(e.getMessage().startsWith(bad[1]), e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
        }
        assertEquals(List.of(), PiiPolicy.parse("columns:\n  a.b.c: {categories: [contact], allow: []}\n").columns().get(0)
                .allow().stream().toList());
    }
}
