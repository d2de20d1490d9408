package dev.schemabrain.pii;

import dev.schemabrain.catalog.GovernmentIds;
import dev.schemabrain.catalog.ValueShape;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the sampled values say, whatever the column is called. Sampling has already replaced identifiers with
 * placeholders ({@code <email>}, {@code <secret>}), and a placeholder counts as the value it replaced.
 */
final class ContentRules {

    /** Shapes whose values, when most samples have them, make the column that category. */
    private static final Map<ValueShape, PiiCategory> MAJORITY = Map.of(
            ValueShape.EMAIL, PiiCategory.CONTACT, ValueShape.PHONE, PiiCategory.CONTACT,
            ValueShape.PAYMENT_CARD, PiiCategory.PAYMENT_CARD, ValueShape.NATIONAL_ID, PiiCategory.GOVERNMENT_ID,
            ValueShape.IP_ADDRESS, PiiCategory.ONLINE_IDENTIFIER, ValueShape.MAC_ADDRESS, PiiCategory.ONLINE_IDENTIFIER,
            ValueShape.IBAN, PiiCategory.FINANCIAL, ValueShape.SECRET, PiiCategory.CREDENTIAL);
    /** Shapes of which one occurrence anywhere, even inside free text, is enough: these must never be missed. */
    private static final Map<ValueShape, PiiCategory> ANY = Map.of(
            ValueShape.PAYMENT_CARD, PiiCategory.PAYMENT_CARD, ValueShape.NATIONAL_ID, PiiCategory.GOVERNMENT_ID,
            ValueShape.SECRET, PiiCategory.CREDENTIAL, ValueShape.BIRTH_DATE, PiiCategory.DEMOGRAPHIC_PROTECTED);
    /** Shapes that tag a free-text column when they occur inside its text (not as the whole value). */
    private static final Map<ValueShape, PiiCategory> IN_TEXT = Map.of(
            ValueShape.EMAIL, PiiCategory.CONTACT, ValueShape.PHONE, PiiCategory.CONTACT, ValueShape.IBAN,
            PiiCategory.FINANCIAL);

    private ContentRules() {
    }

    static void apply(List<String> values, Set<PiiCategory> categories, Set<String> reasons) {
        apply(null, values, categories, reasons);
    }

    /**
     * @param columnName the column's name, or null: it may say that numbers which read together as government
     *                   identifiers are something else ({@code ticket_no}); see {@link GovernmentIds}
     */
    static void apply(String columnName, List<String> values, Set<PiiCategory> categories, Set<String> reasons) {
        if (values.isEmpty()) {
            return;
        }
        // Values no single one of which is an identifier (nine digits) but which together are: col7, ref, field_3.
        GovernmentIds.column(columnName, values).ifPresent(format -> {
            categories.add(PiiCategory.GOVERNMENT_ID);
            reasons.add("content:" + format);
        });
        for (Map.Entry<ValueShape, PiiCategory> shape : ANY.entrySet()) {
            if (values.stream().anyMatch(shape.getKey()::occursIn)) {
                categories.add(shape.getValue());
                reasons.add("content:" + shape.getKey().wireName() + "_in_text");
            }
        }
        for (Map.Entry<ValueShape, PiiCategory> shape : IN_TEXT.entrySet()) {
            if (values.stream().anyMatch(v -> insideText(shape.getKey(), v))) {
                categories.add(shape.getValue());
                reasons.add("content:" + shape.getKey().wireName() + "_in_text");
            }
        }
        // Contact columns often mix phone numbers and e-mail addresses.
        long contact = values.stream().filter(v -> ValueShape.EMAIL.matches(v) || ValueShape.PHONE.matches(v)).count();
        if (contact * 10 >= values.size() * 6L && values.size() >= 2) {
            categories.add(PiiCategory.CONTACT);
            reasons.add("content:contact_mixed");
        }
        for (Map.Entry<ValueShape, PiiCategory> shape : MAJORITY.entrySet()) {
            long matching = values.stream().filter(shape.getKey()::matches).count();
            // Most values must have the shape; a lone value proves little unless it is a redaction placeholder.
            boolean placeholder = shape.getKey().placeholder() != null && values.contains(shape.getKey().placeholder());
            if (matching * 10 >= values.size() * 6L && (values.size() >= 2 || placeholder)) {
                categories.add(shape.getValue());
                reasons.add("content:" + shape.getKey().wireName());
            }
        }
    }

    /**
     * The shape (or its placeholder) inside a longer value with words around it: free text, not a code. Shapes
     * redaction replaces earlier are masked first, so the first groups of a card number are not a phone number.
     */
    private static boolean insideText(ValueShape shape, String text) {
        if (text.equals(shape.placeholder()) || shape.test(text)) {
            return false;
        }
        String value = text;
        for (ValueShape earlier : ValueShape.REDACTION_ORDER.subList(0, ValueShape.REDACTION_ORDER.indexOf(shape))) {
            value = earlier.redactIn(value);
        }
        String rest = shape.redactIn(value).replace(shape.placeholder(), " ");
        boolean found = value.contains(shape.placeholder()) || !rest.equals(value.replace(shape.placeholder(), " "));
        return found && rest.chars().filter(Character::isLetter).count() >= 3;
    }
}
