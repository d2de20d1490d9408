package dev.schemabrain.mcp.args;

import java.util.Locale;

/**
 * The type of one tool argument, or of each element when the argument is an array (arrays are a
 * flag on {@link ArgSpec}, not a type). Seed 001 spells NUMBER as {@code float} or {@code number}.
 */
public enum ArgType {
    STRING, INTEGER, NUMBER, BOOLEAN, ENUM,
    /** Schema version 2026-11-23: a JSON object whose fields are declared in {@code properties}. */
    OBJECT,
    /** Schema version 2026-11-23: a string, number or boolean, or a flat array of them (a filter's value). */
    SCALARS;

    /** The seed's spelling ({@code array} is not a type here; the parser turns it into the array flag). */
    static ArgType fromSeed(String name) {
        return switch (name) {
            case "string" -> STRING;
            case "integer" -> INTEGER;
            case "float", "number" -> NUMBER;
            case "boolean" -> BOOLEAN;
            case "enum" -> ENUM;
            case "object" -> OBJECT;
            case "scalars" -> SCALARS;
            default -> throw new IllegalArgumentException("unknown type '" + name
                    + "' (expected string, integer, float, number, boolean, enum, object, scalars or array)");
        };
    }

    /** The words of the validation messages: "must be a string", "must be an integer", ... */
    String article() {
        return switch (this) {
            case INTEGER -> "an integer";
            case ENUM -> "one of the enum values";
            case OBJECT -> "an object";
            case SCALARS -> "a string, number, boolean or an array of them";
            default -> "a " + name().toLowerCase(Locale.ROOT);
        };
    }

    boolean isNumeric() {
        return this == INTEGER || this == NUMBER;
    }
}
