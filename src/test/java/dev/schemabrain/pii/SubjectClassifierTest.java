package dev.schemabrain.pii;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.testing.TestCatalogs;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subject classes drafted from columns, their tags (the real classifier's, as an index run computes them) and the
 * table's name; each case is a shape seen in a sample or a red-team schema.
 */
class SubjectClassifierTest {

    /** The class of {@code table}, its columns tagged by the classifier from their names alone. */
    static SubjectClass draft(Table table) {
        List<PiiTags.Entry> tags = new ArrayList<>();
        for (Column c : table.columns()) {
            PiiTag tag = PiiClassifier.classify(c.name(), c.dataType(), List.of(), table.name().table(), null);
            if (tag.tagged()) {
                tags.add(new PiiTags.Entry(table.name(), c.name(), tag, PiiTags.Origin.HEURISTIC));
            }
        }
        return SubjectClassifier.draft(table, new PiiTags(tags, List.of())).subjectClass();
    }

    @Test
    void peopleAreRecognisedByTheirNamesAndBirthDates() {
        assertEquals(SubjectClass.PERSON, draft(TestCatalogs.table("public.customer").columns("customer_id", "first_name:text",
                "last_name:text", "company:text", "email:text", "support_rep_id").pk("customer_id").build()),
                "Chinook's customer has a company column and is still a person");
        assertEquals(SubjectClass.PERSON, draft(TestCatalogs.table("public.employees").columns("employee_id", "last_name:text",
                "first_name:text", "birth_date:date", "title:text").pk("employee_id").build()));
        assertEquals(SubjectClass.PERSON, draft(TestCatalogs.table("hr.patient").columns("patient_id", "mrn:text",
                "date_of_birth:date").pk("patient_id").build()));
    }

    @Test
    void companiesAreOrganisationsEvenWithAContactPersonOrABillingEmail() {
        assertEquals(SubjectClass.ORGANISATION, draft(TestCatalogs.table("public.customers").columns("customer_id:text",
                "company_name:text", "contact_name:text", "contact_title:text", "phone:text").pk("customer_id").build()),
                "Northwind's customers are companies");
        assertEquals(SubjectClass.ORGANISATION, draft(TestCatalogs.table("public.shippers").columns("shipper_id",
                "company_name:text", "phone:text").pk("shipper_id").build()));
        assertEquals(SubjectClass.ORGANISATION, draft(TestCatalogs.table("billing.accounts").columns("account_id",
                "legal_name:text", "vat_number:text", "billing_email:text").pk("account_id").build()));
        assertEquals(SubjectClass.NONE, draft(TestCatalogs.table("billing.accounts").columns("account_id", "name:text",
                "country:text", "is_test:boolean", "contact_gender:text").pk("account_id").build()),
                "a B2B account's contact's gender describes the contact, not the account");
        assertEquals(SubjectClass.ORGANISATION, draft(TestCatalogs.table("public.store").columns("store_id",
                "manager_staff_id", "address_id").pk("store_id").build()));
    }

    @Test
    void visitorsWithAnEmailArePeople() {
        assertEquals(SubjectClass.PERSON, draft(TestCatalogs.table("web.site_visitors").columns("visitor_id", "email:text",
                "first_seen_at:timestamp").pk("visitor_id").build()), "a visitor's row with an e-mail is a person's");
        assertEquals(SubjectClass.PERSON, draft(TestCatalogs.table("events.attendees").columns("attendee_id", "email:text",
                "ticket_type:text").pk("attendee_id").build()));
    }

    @Test
    void factsAboutPeopleAreNotPeople() {
        assertEquals(SubjectClass.NONE, draft(TestCatalogs.table("hr.payslip").columns("payslip_id", "employee_id",
                "pay_year", "gross_salary:numeric").pk("payslip_id").build()), "a payslip's id is not a person");
        assertEquals(SubjectClass.NONE, draft(TestCatalogs.table("public.payment").columns("payment_id", "customer_id",
                "staff_id", "amount:numeric").pk("payment_id").build()));
        assertEquals(SubjectClass.NONE, draft(TestCatalogs.table("public.artist").columns("artist_id", "name:text")
                .pk("artist_id").build()), "an artist catalogue's name is no person evidence");
    }

    @Test
    void theOperatorsWordWinsAndIsCheckedStrictly() {
        PiiPolicy policy = PiiPolicy.parse("subjects: {actor: none, account: organization}\nsubject_of: {payment: customer}\n"
                + "person_keys: {timesheet.employee_ref: employee}\n");
        assertEquals(Map.of("actor", SubjectClass.NONE, "account", SubjectClass.ORGANISATION), policy.subjects().classes());
        assertEquals(Map.of("payment", "customer"), policy.subjects().subjectOf());
        assertEquals(policy.subjects(), PiiPolicy.parse(policy.toYaml()).subjects(), "the file round-trips");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> PiiPolicy.parse("subjects: {actor: people}\n"));
        assertTrue(bad.getMessage().contains("subjects.actor") && bad.getMessage().contains("person, organisation or none"),
                bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PiiPolicy.parse("person_keys: {employee_ref: employee}\n"));
        Table actor = TestCatalogs.table("public.actor").columns("actor_id", "first_name:text", "last_name:text").pk("actor_id").build();
        List<SubjectClasses.Assigned> assigned = SubjectClasses.assign(Map.of("actor", actor), PiiTags.NONE, policy.subjects());
        assertEquals(SubjectClass.NONE, assigned.get(0).subjectClass());
        assertEquals("operator", assigned.get(0).origin());
    }
}
