package dev.schemabrain.pii;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.MetricPiiCheck.Use;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The disclosure rules as a matrix: every role a column can play in a metric against every
 * class of column — untagged, a direct identifier (contact), a tagged quasi-identifier that is not direct
 * (a birth date, demographic_protected), a blocked floor category (credential) — with the answer written
 * out by hand, then the operator's allowances lifting exactly one rule each and never the block list.
 */
class DisclosureRulesTest {

    static final QualifiedName USERS = QualifiedName.of("main", "users");

    /** The column of each class on the users table. */
    enum Kind {
        UNTAGGED("role"), DIRECT("email"), QUASI("date_of_birth"), FLOOR("password_hash");

        final String column;

        Kind(String column) {
            this.column = column;
        }
    }

    static PiiTags tags() {
        return new PiiTags(List.of(
                entry("email", PiiCategory.CONTACT),
                entry("date_of_birth", PiiCategory.DEMOGRAPHIC_PROTECTED),
                entry("password_hash", PiiCategory.CREDENTIAL)), List.of());
    }

    static PiiTags.Entry entry(String column, PiiCategory category) {
        return new PiiTags.Entry(USERS, column, PiiTag.of(Set.of(category), List.of("test")), PiiTags.Origin.HEURISTIC);
    }

    /** Refused categories per role and kind; "" means the query may run. */
    static final Map<Use, Map<Kind, String>> EXPECTED = new EnumMap<>(Use.class);

    static void expect(Use use, String untagged, String direct, String quasi, String floor) {
        EXPECTED.put(use, new EnumMap<>(Map.of(Kind.UNTAGGED, untagged, Kind.DIRECT, direct, Kind.QUASI, quasi,
                Kind.FLOOR, floor)));
    }

    static {
        //            role                   untagged  direct      quasi                     floor
        expect(Use.MEASURE,          "", "",        "",                       "credential");
        expect(Use.MIN_MAX_OPERAND,  "", "contact", "demographic_protected",  "credential");
        expect(Use.FILTER_EQUALITY,  "", "contact", "",                       "credential");
        expect(Use.FILTER_RANGE,     "", "contact", "demographic_protected",  "credential");
        expect(Use.FILTER_NULL_TEST, "", "",        "",                       "credential");
        expect(Use.GROUP_BY,         "", "contact", "demographic_protected",  "credential");
        expect(Use.TIME_DIMENSION,   "", "contact", "demographic_protected",  "credential");
        expect(Use.JOIN_KEY,         "", "",        "",                       "credential");
    }

    static String refused(Use use, Kind kind, PiiTags tags) {
        MetricPiiCheck.Verdict v = MetricPiiCheck.check(List.of(new MetricPiiCheck.ColumnUse(USERS, kind.column, use)), tags,
                BlockList.FLOOR);
        return v.refusal().map(r -> String.join(",", r.categoryNames())).orElse("");
    }

    @Test
    void everyRoleAgainstEveryClassOfColumn() {
        assertEquals(Set.of(Use.values()), EXPECTED.keySet(), "every role has a row");
        List<String> wrong = new ArrayList<>();
        for (Use use : Use.values()) {
            for (Kind kind : Kind.values()) {
                String got = refused(use, kind, tags());
                if (!got.equals(EXPECTED.get(use).get(kind))) {
                    wrong.add(use + " × " + kind + ": expected '" + EXPECTED.get(use).get(kind) + "', got '" + got + "'");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyDirectIdentifierCategoryRefusesEqualityAndNoOtherCategoryDoes() {
        Set<PiiCategory> direct = Set.of(PiiCategory.CONTACT, PiiCategory.CREDENTIAL, PiiCategory.PAYMENT_CARD,
                PiiCategory.GOVERNMENT_ID, PiiCategory.ONLINE_IDENTIFIER, PiiCategory.BIOMETRIC, PiiCategory.GENETIC);
        BlockList nothingBlocked = new BlockList(Set.of());
        for (PiiCategory c : PiiCategory.values()) {
            PiiTags tags = new PiiTags(List.of(entry("x", c)), List.of());
            boolean refused = MetricPiiCheck.check(List.of(new MetricPiiCheck.ColumnUse(USERS, "x", Use.FILTER_EQUALITY)), tags,
                    nothingBlocked).refusal().isPresent();
            assertEquals(direct.contains(c), refused, c.wireName());
        }
    }

    @Test
    void aRefusalNamesOnlyItsCausesAndItsFirstColumn() {
        MetricPiiCheck.Verdict v = MetricPiiCheck.check(List.of(
                new MetricPiiCheck.ColumnUse(USERS, "role", Use.GROUP_BY),
                new MetricPiiCheck.ColumnUse(USERS, "email", Use.FILTER_NULL_TEST),
                new MetricPiiCheck.ColumnUse(USERS, "date_of_birth", Use.TIME_DIMENSION),
                new MetricPiiCheck.ColumnUse(USERS, "email", Use.FILTER_RANGE)), tags(), BlockList.FLOOR);
        MetricPiiCheck.Refusal r = v.refusal().orElseThrow();
        assertEquals(List.of("contact", "demographic_protected"), r.categoryNames());
        assertEquals("main.users.date_of_birth", r.column());
        assertEquals(Use.TIME_DIMENSION, r.use());
        assertEquals(MetricPiiCheck.Cause.ROLE, r.cause());
        assertEquals(List.of("contact", "demographic_protected"), v.propagatedNames(), "everything touched is reported");
    }

    @Test
    void anAllowanceLiftsExactlyItsRuleOnExactlyItsColumnAndNeverTheBlockList() {
        Map<String, Set<Allowance>> allowed = Map.of("email", Set.of(Allowance.GROUP_BY),
                "date_of_birth", Set.of(Allowance.TIME_DIMENSION, Allowance.MIN_MAX),
                "password_hash", Set.of(Allowance.values()));
        PiiTags tags = tags().withAllowances(Map.of(USERS, allowed));
        assertEquals("", refused(Use.GROUP_BY, Kind.DIRECT, tags));
        assertEquals("contact", refused(Use.FILTER_EQUALITY, Kind.DIRECT, tags), "group_by does not allow eq");
        assertEquals("contact", refused(Use.FILTER_RANGE, Kind.DIRECT, tags));
        assertEquals("contact", refused(Use.TIME_DIMENSION, Kind.DIRECT, tags));
        assertEquals("", refused(Use.TIME_DIMENSION, Kind.QUASI, tags));
        assertEquals("", refused(Use.MIN_MAX_OPERAND, Kind.QUASI, tags));
        assertEquals("demographic_protected", refused(Use.GROUP_BY, Kind.QUASI, tags), "the time dimension is not group_by");
        for (Use use : Use.values()) {
            assertEquals("credential", refused(use, Kind.FLOOR, tags), "no allowance lifts the block list: " + use);
        }
        MetricPiiCheck.Refusal blocked = MetricPiiCheck.check(List.of(new MetricPiiCheck.ColumnUse(USERS, "password_hash",
                Use.MEASURE)), tags, BlockList.FLOOR).refusal().orElseThrow();
        assertEquals(MetricPiiCheck.Cause.BLOCKED, blocked.cause());
        PiiTags other = tags().withAllowances(Map.of(QualifiedName.of("main", "customers"), Map.of("email", Set.of(Allowance.GROUP_BY))));
        assertEquals("contact", refused(Use.GROUP_BY, Kind.DIRECT, other), "an allowance names one table's column");
        assertTrue(tags.allowances(USERS, "role").isEmpty());
    }

    @Test
    void aWiderBlockListRefusesInEveryRole() {
        BlockList wide = BlockList.of(Set.of(PiiCategory.CREDENTIAL, PiiCategory.PAYMENT_CARD, PiiCategory.GOVERNMENT_ID,
                PiiCategory.CONTACT), false);
        for (Use use : Use.values()) {
            MetricPiiCheck.Verdict v = MetricPiiCheck.check(List.of(new MetricPiiCheck.ColumnUse(USERS, "email", use)), tags(), wide);
            assertEquals(List.of("contact"), v.refusal().orElseThrow().categoryNames(), use.name());
            assertEquals(MetricPiiCheck.Cause.BLOCKED, v.refusal().orElseThrow().cause());
        }
    }
}
