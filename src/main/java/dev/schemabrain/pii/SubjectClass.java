package dev.schemabrain.pii;

import java.util.Locale;

/**
 * What the rows of an entity are: individual people, organisations, or neither. Small-cell
 * suppression counts people only; an organisation's tagged column (a billing e-mail) stays protected as a
 * column but does not make its rows people.
 */
public enum SubjectClass {
    PERSON, ORGANISATION, NONE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SubjectClass fromWireName(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (SubjectClass c : values()) {
            if (c.wireName().equals(n) || c == ORGANISATION && n.equals("organization")) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown subject class '" + name + "'; use person, organisation or none");
    }
}
