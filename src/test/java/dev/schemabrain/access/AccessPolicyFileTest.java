package dev.schemabrain.access;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UnsafeFileException;
import dev.schemabrain.error.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessPolicyFileTest {

    static final String SPEC_EXAMPLE = """
            version: 1
            roles:
              analyst:
                allow: [public.invoice, public.customer, sales.*]
                metrics: [revenue]
                pii_clearance: [contact]
                min_group_size: 10
                metric_rate: 60/min
              support:
                allow: [public.*]
                row_filters:
                  - {entity: customer, column: customer.support_rep_id, op: eq, claim: employee_id}
            default_role: none
            """;

    @TempDir
    Path dir;

    @Test
    void readsTheSpecExample() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse(SPEC_EXAMPLE, "p.yaml");
        assertEquals(List.of("analyst", "support"), List.copyOf(policy.roles().keySet()));
        assertEquals(Optional.empty(), policy.defaultRole());
        Role analyst = policy.roles().get("analyst");
        assertTrue(analyst.allows(new QualifiedName("sales", "orders")));
        assertTrue(analyst.allows(new QualifiedName("public", "invoice")));
        assertFalse(analyst.allows(new QualifiedName("public", "employee")));
        assertFalse(analyst.allows(new QualifiedName("sales_archive", "orders")));
        assertEquals(Optional.of(Set.of("revenue")), analyst.metrics());
        assertEquals(Set.of("contact"), analyst.piiClearance());
        assertEquals(OptionalInt.of(10), analyst.minGroupSize());
        assertEquals(Optional.of("60/min"), analyst.metricRate());
        Role support = policy.roles().get("support");
        assertEquals(List.of(new RowFilter("customer", "customer.support_rep_id", RowFilter.Op.EQ, "employee_id")),
                support.rowFilters());
        assertEquals(Optional.empty(), support.metrics());

        Access bound = policy.resolve(new Caller("token:sam", Optional.of("support"), Map.of("employee_id", "3")));
        assertEquals(List.of("3"), bound.rowFilters().get(0).values());
        assertTrue(policy.resolve(Caller.named("token:nobody")).denial().isPresent());
        assertFalse(policy.resolve(Caller.named("token:nobody")).sees(new QualifiedName("public", "invoice")));
    }

    @Test
    void aDefaultRoleAppliesToCallersWithoutOne() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("""
                version: 1
                roles:
                  viewer: {allow: [public.invoice]}
                default_role: viewer
                """, "p.yaml");
        assertEquals(Optional.of("viewer"), policy.resolve(Caller.named("anonymous")).role());
    }

    @Test
    void unknownKeysAreRefusedWithFileAndLine() {
        refused("""
                version: 1
                roles:
                  analyst:
                    allow: [public.invoice]
                    alow: [public.customer]
                """, "p.yaml line 5", "unknown key 'alow'");
        refused("""
                version: 1
                role: {}
                """, "p.yaml line 2", "unknown key 'role'");
        refused("""
                version: 1
                roles:
                  s:
                    row_filters:
                      - {entity: customer, column: customer.id, op: eq, claim: c, value: 3}
                """, "p.yaml line 5", "unknown key 'value'");
    }

    @Test
    void duplicateRolesAreRefused() {
        refused("""
                version: 1
                roles:
                  analyst: {allow: [public.a]}
                  support: {allow: [public.b]}
                  analyst: {allow: [public.*]}
                """, "p.yaml line 5", "'analyst' twice (first on line 3)");
    }

    @Test
    void badPatternsAreRefused() {
        for (String bad : List.of("invoice", "\"*.*\"", "public.inv*", "a.b.c", "public.", "\"public. invoice\"")) {
            refused("""
                    version: 1
                    roles:
                      analyst:
                        allow:
                          - public.ok
                          - %s
                    """.formatted(bad), "p.yaml line 6", "not schema.table or schema.*");
        }
    }

    @Test
    void unknownOpsAreRefused() {
        refused("""
                version: 1
                roles:
                  support:
                    row_filters:
                      - entity: customer
                        column: customer.support_rep_id
                        op: like
                        claim: employee_id
                """, "p.yaml line 7", "op to 'like'");
    }

    @Test
    void aRowFilterNeedsEveryPartAndATableColumn() {
        refused("""
                version: 1
                roles:
                  support:
                    row_filters:
                      - {entity: customer, op: eq, claim: employee_id}
                """, "p.yaml line 5", "has no column");
        refused("""
                version: 1
                roles:
                  support:
                    row_filters:
                      - {entity: customer, column: support_rep_id, op: eq, claim: employee_id}
                """, "p.yaml line 5", "table.column");
    }

    @Test
    void defaultRoleMustNameARole() {
        refused("""
                version: 1
                roles:
                  analyst: {allow: [public.a]}
                default_role: admin
                """, "p.yaml line 4", "default_role to admin, which is not a role");
    }

    @Test
    void minGroupSizeIsAPositiveWholeNumber() {
        for (String bad : List.of("0", "-3", "ten", "2.5")) {
            refused("""
                    version: 1
                    roles:
                      analyst:
                        min_group_size: %s
                    """.formatted(bad), "p.yaml line 4", "min_group_size");
        }
    }

    @Test
    void metricRateIsARate() {
        for (String bad : List.of("60", "off", "0/min", "60/week", "fast")) {
            refused("""
                    version: 1
                    roles:
                      analyst:
                        metric_rate: %s
                    """.formatted(bad), "p.yaml line 4", "metric_rate");
        }
    }

    @Test
    void piiClearanceNamesCategories() {
        refused("""
                version: 1
                roles:
                  analyst:
                    pii_clearance: [contact, ssn]
                """, "p.yaml line 4", "'ssn'");
    }

    @Test
    void versionAndShapeAreChecked() {
        refused("roles: {}\n", "p.yaml line 1", "no version");
        refused("version: 2\nroles: {}\n", "p.yaml line 1", "version 2");
        refused("version: 1\nroles: [analyst]\n", "p.yaml line 2", "mapping");
        refused("version: 1\nroles:\n  analyst:\n    allow: public.a\n", "p.yaml line 4", "list");
        refused("version: 1\nroles: {a: {allow: [public.a]}\n", "p.yaml", "not valid YAML");
        refused("", "p.yaml line 1", "is empty");
        refused("version: 1\nroles:\n  none: {allow: [public.a]}\n", "p.yaml line 3", "'none'");
    }

    @Test
    void anchorsAndTagsAreRefused() {
        refused("""
                version: 1
                roles:
                  a: &r {allow: [public.a]}
                  b: *r
                """, "p.yaml line 3", "anchor or alias");
        refused("""
                version: 1
                roles:
                  a: {allow: [!weird public.a]}
                """, "p.yaml line 3", "tag");
    }

    @Test
    void theFileMustBePrivate() throws Exception {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, SPEC_EXAMPLE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(assertThrows(UnsafeFileException.class, () -> AccessPolicyFile.read(file)).getMessage().contains("chmod 600"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals(2, AccessPolicyFile.read(file).roles().size());
        assertTrue(assertThrows(UserError.class, () -> AccessPolicyFile.read(dir.resolve("missing.yaml"))).getMessage()
                .contains("does not exist"));
    }

    @Test
    void errorsNameTheFilePath() throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "version: 1\nroles:\n  a:\n    allow: [public.a]\n    colour: red\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertEquals("The access policy " + file + " line 5 has an unknown key 'colour'; the keys here are allow,"
                        + " metric_rate, metrics, min_group_size, pii_clearance, reviewer, row_filters.",
                assertThrows(UserError.class, () -> AccessPolicyFile.read(file)).getMessage());
    }

    @Test
    void aRoleMarkedReviewerReviewsAndTheDefaultRoleNeverDoes() throws Exception {
        AccessPolicy policy = AccessPolicyFile.parse("version: 1\nroles:\n  lead:\n    allow: [public.*]\n    reviewer: true\n"
                + "  analyst:\n    allow: [public.*]\n    reviewer: false\n  guest:\n    allow: [public.a]\n"
                + "default_role: lead\n", "p.yaml");
        assertEquals(List.of("lead"), policy.reviewerRoles());
        assertTrue(policy.reviews(new Caller("token:ann", Optional.of("lead"), Map.of())));
        assertFalse(policy.reviews(new Caller("token:bob", Optional.of("analyst"), Map.of())));
        assertFalse(policy.reviews(new Caller("token:gus", Optional.of("guest"), Map.of())));
        assertFalse(policy.reviews(new Caller("token:x", Optional.of("gone"), Map.of())), "a role the file lacks");
        assertFalse(policy.reviews(Caller.named("token:nobody")), "default_role lead does not make a roleless caller a reviewer");
        refused("version: 1\nroles:\n  a:\n    allow: [public.a]\n    reviewer: yes please\n", "p.yaml line 5",
                "sets roles.a.reviewer to yes please; it is true (the role may review in the console) or false");
        refused("version: 1\nroles:\n  a:\n    allow: [public.a]\n    reviewer: [true]\n", "p.yaml line 5",
                "where a single value is expected");
    }

    private static void refused(String text, String where, String what) {
        String message = assertThrows(SchemaBrainException.class, () -> AccessPolicyFile.parse(text, "p.yaml")).getMessage();
        assertTrue(message.startsWith("The access policy " + where + " "), message);
        assertTrue(message.contains(what), message);
        assertTrue(!message.contains("\n") && message.endsWith("."), message);
    }
}
