package dev.schemabrain.pii;

import java.util.Collection;
import java.util.Locale;

/** How sensitive a column is, in increasing order. */
public enum Sensitivity {
    PUBLIC, INTERNAL, CONFIDENTIAL, PII;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Sensitivity fromWireName(String name) {
        for (Sensitivity s : values()) {
            if (s.wireName().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown sensitivity '" + name + "'; use public, internal, confidential or pii");
    }

    public static Sensitivity max(Sensitivity a, Sensitivity b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** The level implied by a set of categories: the highest of theirs, public when there are none. */
    public static Sensitivity of(Collection<PiiCategory> categories) {
        Sensitivity level = PUBLIC;
        for (PiiCategory c : categories) {
            level = max(level, c.sensitivity());
        }
        return level;
    }
}
