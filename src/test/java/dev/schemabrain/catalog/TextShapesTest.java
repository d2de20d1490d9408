package dev.schemabrain.catalog;

import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiClassifier;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 item 9: identifiers written inside free text the way people write them in tickets and notes: an SSN
 * without dashes after its name, an e-mail address written "name (at) domain", a date of birth and a passport number
 * after their words. Each is redacted where it stands; look-alikes without the context stay as they are.
 */
class TextShapesTest {

    private static String redact(String text) {
        return SamplePolicy.redactText(text);
    }

    @Test
    void anSsnWithoutDashesIsRedactedOnlyAfterItsNameAndWhenItCouldBeOne() {
        assertEquals("Caller gave SSN <national id> to verify", redact("Caller gave SSN 123456789 to verify"));
        assertEquals("social security number: <national id>.", redact("social security number: 078051120."));
        assertEquals("ssn# <national id>", redact("ssn# 123 45 6789"));
        assertEquals("Order 123456789 shipped", redact("Order 123456789 shipped"), "nine digits alone are an id");
        assertEquals("SSN 987654321", redact("SSN 987654321"), "no SSN starts with 9");
        assertEquals("SSN 000123456", redact("SSN 000123456"), "no SSN has area 000");
        assertEquals("SSN 123004567", redact("SSN 123004567"), "no SSN has group 00");
    }

    @Test
    void obfuscatedEmailAddressesAreRedacted() {
        assertEquals("write to <email> please", redact("write to jane.doe (at) example (dot) com please"));
        assertEquals("contact <email>", redact("contact j.smith [at] mail.example.org"));
        assertEquals("mail <email> today", redact("mail john at acme dot com today"));
        assertEquals("<email>", redact("ops @ example.com"));
        assertTrue(ValueShape.EMAIL.matches("jane (at) example (dot) com"), "a whole value is an e-mail address");
        assertEquals("call me at home dot later", redact("call me at home dot later"));
        assertEquals("we met at the office", redact("we met at the office"));
    }

    @Test
    void datesOfBirthAndPassportNumbersAreRedactedAfterTheirWords() {
        assertEquals("DOB <birth date>, allergic to latex", redact("DOB 1984-03-12, allergic to latex"));
        assertEquals("patient born <birth date> in Leeds", redact("patient born 12/03/1984 in Leeds"));
        assertEquals("geboren am <birth date>", redact("geboren am 12.03.1984"));
        assertEquals("date of birth: <birth date>", redact("date of birth: 3 March 1984"));
        assertEquals("shipped 2024-03-12 by courier", redact("shipped 2024-03-12 by courier"));
        assertEquals("passport no. <national id> expires soon", redact("passport no. X1234567 expires soon"));
        assertEquals("Reisepass <national id>", redact("Reisepass C01X00T47"));
        assertEquals("passport photo attached", redact("passport photo attached"));
        assertEquals("passport renewal due", redact("passport renewal due"));
    }

    @Test
    void theClassifierTagsANotesColumnThatHoldsThem() {
        Set<PiiCategory> ssn = PiiClassifier.classify("notes", "text",
                List.of("Called about refund", "Customer SSN 123456789 on file"), "tickets", null).categories();
        assertTrue(ssn.contains(PiiCategory.GOVERNMENT_ID), ssn.toString());
        Set<PiiCategory> dob = PiiClassifier.classify("notes", "text",
                List.of("Prefers mornings", "DOB 1984-03-12 per form"), "tickets", null).categories();
        assertTrue(dob.contains(PiiCategory.DEMOGRAPHIC_PROTECTED), dob.toString());
        Set<PiiCategory> mail = PiiClassifier.classify("notes", "text",
                List.of("Prefers mornings", "reach her at jane (at) example (dot) com"), "tickets", null).categories();
        assertTrue(mail.contains(PiiCategory.CONTACT), mail.toString());
        assertFalse(PiiClassifier.classify("notes", "text", List.of("Order 123456789 shipped", "Reorder placed"),
                "tickets", null).tagged(), "nine digits alone tag nothing");
    }
}
