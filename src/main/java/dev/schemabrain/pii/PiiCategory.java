package dev.schemabrain.pii;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The twelve PII categories (docs/pii.md). */
public enum PiiCategory {
    CONTACT(Sensitivity.PII),
    FINANCIAL(Sensitivity.CONFIDENTIAL),
    PAYMENT_CARD(Sensitivity.PII),
    HEALTH(Sensitivity.PII),
    GENETIC(Sensitivity.PII),
    BIOMETRIC(Sensitivity.PII),
    BEHAVIORAL(Sensitivity.CONFIDENTIAL),
    ONLINE_IDENTIFIER(Sensitivity.PII),
    CREDENTIAL(Sensitivity.PII),
    GOVERNMENT_ID(Sensitivity.PII),
    LOCATION(Sensitivity.PII),
    DEMOGRAPHIC_PROTECTED(Sensitivity.PII);

    /** Always blocked; lowering the block list below this needs an explicit force flag. */
    public static final Set<PiiCategory> CATASTROPHIC_FLOOR =
            Set.copyOf(EnumSet.of(CREDENTIAL, PAYMENT_CARD, GOVERNMENT_ID));

    private final Sensitivity sensitivity;

    PiiCategory(Sensitivity sensitivity) {
        this.sensitivity = sensitivity;
    }

    /** The level a column tagged with only this category gets. */
    public Sensitivity sensitivity() {
        return sensitivity;
    }

    public boolean catastrophic() {
        return CATASTROPHIC_FLOOR.contains(this);
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static PiiCategory fromWireName(String name) {
        for (PiiCategory c : values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown PII category '" + name + "'; the categories are contact, financial,"
                + " payment_card, health, genetic, biometric, behavioral, online_identifier, credential, government_id,"
                + " location and demographic_protected");
    }
}
