package dev.schemabrain.pii;

import dev.schemabrain.error.PiiPolicyException;
import dev.schemabrain.catalog.QualifiedName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operator's policy file, the block list's floor, overrides over the classifier, and the metric rules. */
class PiiPolicyTest {

    @TempDir
    Path dir;

    @Test
    void aPolicyFileRoundTripsAndAMissingFileIsEmpty() throws Exception {
        Path file = dir.resolve("schemabrain/pii_policy.yaml");
        assertEquals(PiiPolicy.EMPTY, PiiPolicy.read(file));
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                block: [credential, payment_card, government_id, health]
                columns:
                  public.customer.email: {categories: [contact]}
                  public.track.composer: {categories: []}
                  public.patient.notes: {categories: [health], sensitivity: confidential}
                """);
        PiiPolicy policy = PiiPolicy.read(file);
        assertEquals(Set.of(PiiCategory.CREDENTIAL, PiiCategory.PAYMENT_CARD, PiiCategory.GOVERNMENT_ID, PiiCategory.HEALTH),
                policy.block().orElseThrow().categories());
        assertEquals(List.of("public.customer.email", "public.patient.notes", "public.track.composer"),
                policy.columns().stream().map(PiiPolicy.ColumnOverride::column).toList());
        PiiTag notes = policy.columns().get(1).tag();
        assertEquals(Sensitivity.PII, notes.sensitivity(), "a level below the categories' own is raised to theirs");
        assertFalse(policy.columns().get(2).tag().tagged());

        PiiPolicy changed = policy.with(new PiiPolicy.ColumnOverride("public.track.composer",
                PiiTag.of(Set.of(PiiCategory.CONTACT), List.of("operator"))));
        changed.write(file);
        PiiPolicy reread = PiiPolicy.read(file);
        assertEquals(changed.block(), reread.block());
        assertEquals(changed.columns().stream().map(c -> c.column() + c.tag().categoryNames()).toList(),
                reread.columns().stream().map(c -> c.column() + c.tag().categoryNames()).toList());
    }

    @Test
    void badPolicyFilesAreRefusedWithTheProblemNamed() throws Exception {
        Path file = dir.resolve("p.yaml");
        for (String[] bad : new String[][]{
                {"block: [contact]\n", "leaves out credential, payment_card, government_id"},
                {"columns:\n  a.b.c: {categories: [secretz]}\n", "unknown PII category 'secretz'"},
                {"columns:\n  a.b.c: {sensitivity: pii}\n", "needs categories"},
                {"colums: {}\n", "unknown key 'colums'"},
                {"columns: [1, 2]\n", "columns must map"},
                {"block: [\n", "not YAML"}}) {
            Files.writeString(file, bad[0]);
            PiiPolicyException e = assertThrows(PiiPolicyException.class, () -> PiiPolicy.read(file), bad[0]);
            assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().startsWith("The PII policy " + file + " is invalid"),
                    e.getMessage());
        }
        Files.writeString(file, "block: [contact]\nforce: true\n");
        assertEquals(Set.of(PiiCategory.CONTACT), PiiPolicy.read(file).block().orElseThrow().categories(),
                "force allows a list below the floor");
    }

    @Test
    void theBlockListKeepsTheFloorUnlessForced() {
        assertEquals(BlockList.FLOOR, BlockList.parse("credential, payment_card,government_id", false));
        assertTrue(BlockList.parse("credential,payment_card,government_id,health", false).blocks(PiiCategory.HEALTH));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BlockList.parse("credential,health", false));
        assertTrue(e.getMessage().contains("leaves out payment_card, government_id"), e.getMessage());
        assertEquals(Set.of(PiiCategory.HEALTH), BlockList.parse("health", true).categories());
        assertThrows(IllegalArgumentException.class, () -> BlockList.parse("credential,payment_card,government_id,pets", false));
    }

    @Test
    void overridesWinOverTheClassifierAndCanClearATag() {
        QualifiedName t = QualifiedName.of("public", "customer");
        PiiTags tags = new PiiTags(
                List.of(entry(t, "email", PiiCategory.CONTACT, PiiTags.Origin.HEURISTIC),
                        entry(t, "company", PiiCategory.CONTACT, PiiTags.Origin.HEURISTIC)),
                List.of(new PiiTags.Entry(t, "company", PiiTag.NONE, PiiTags.Origin.OPERATOR),
                        entry(t, "notes", PiiCategory.HEALTH, PiiTags.Origin.OPERATOR)));
        assertEquals(Set.of(PiiCategory.CONTACT), tags.tag(t, "email").categories());
        assertFalse(tags.tag(t, "company").tagged(), "the operator's 'not PII' hides a false positive");
        assertEquals(List.of("public.customer.email", "public.customer.notes"),
                tags.tagged().stream().map(PiiTags.Entry::qualifiedColumn).toList());
        assertEquals(PiiTags.Origin.OPERATOR, tags.tagged().get(1).origin());
        assertFalse(tags.tag(t, "missing").tagged());
    }

    @Test
    void metricRulesRefuseBlockedCategoriesExtremaAndGroupingsOverTaggedColumns() {
        QualifiedName t = QualifiedName.of("main", "users");
        PiiTags tags = new PiiTags(List.of(entry(t, "email", PiiCategory.CONTACT, PiiTags.Origin.HEURISTIC),
                entry(t, "password_hash", PiiCategory.CREDENTIAL, PiiTags.Origin.HEURISTIC),
                entry(t, "date_of_birth", PiiCategory.DEMOGRAPHIC_PROTECTED, PiiTags.Origin.HEURISTIC)), List.of());
        MetricPiiCheck.Verdict ok = MetricPiiCheck.check(List.of(use(t, "id", MetricPiiCheck.Use.MEASURE),
                use(t, "email", MetricPiiCheck.Use.MEASURE)), tags, BlockList.FLOOR);
        assertTrue(ok.refusal().isEmpty());
        assertEquals(List.of("contact"), ok.propagatedNames(), "a filter over a tagged column is in the PII set");

        MetricPiiCheck.Verdict blocked = MetricPiiCheck.check(List.of(use(t, "email", MetricPiiCheck.Use.MEASURE),
                use(t, "password_hash", MetricPiiCheck.Use.MEASURE)), tags, BlockList.FLOOR);
        assertEquals(List.of("credential"), blocked.refusal().orElseThrow().categoryNames(), "only the blocked category");
        assertEquals("main.users.password_hash", blocked.refusal().orElseThrow().column());

        assertEquals(List.of("demographic_protected"), MetricPiiCheck.check(List.of(use(t, "date_of_birth",
                MetricPiiCheck.Use.MIN_MAX_OPERAND)), tags, BlockList.FLOOR).refusal().orElseThrow().categoryNames());
        assertTrue(MetricPiiCheck.check(List.of(use(t, "id", MetricPiiCheck.Use.MIN_MAX_OPERAND)), tags, BlockList.FLOOR)
                .refusal().isEmpty(), "MIN over an untagged column is fine");
        MetricPiiCheck.Refusal grouped = MetricPiiCheck.check(List.of(use(t, "email", MetricPiiCheck.Use.GROUP_BY)), tags,
                BlockList.FLOOR).refusal().orElseThrow();
        assertEquals(MetricPiiCheck.Use.GROUP_BY, grouped.use());
        assertEquals(Optional.of(List.of("contact")), Optional.of(grouped.categoryNames()));
    }

    private static PiiTags.Entry entry(QualifiedName t, String column, PiiCategory category, PiiTags.Origin origin) {
        return new PiiTags.Entry(t, column, PiiTag.of(Set.of(category), List.of("test")), origin);
    }

    private static MetricPiiCheck.ColumnUse use(QualifiedName t, String column, MetricPiiCheck.Use use) {
        return new MetricPiiCheck.ColumnUse(t, column, use);
    }
}
