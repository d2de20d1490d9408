package dev.schemabrain.catalog;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Yes/no columns and the literals that test them. A flag is a boolean type (PostgreSQL {@code boolean}, MySQL
 * {@code tinyint(1)}, {@code bit(1)}) or a number column whose sampled values are all 0 or 1 ({@code deleted = 0}
 * on SQLite or an older MySQL schema). A yes/no literal is no one's data: it may be kept wherever it is compared
 * with a flag.
 */
public final class Flags {

    private static final Set<String> TRUE = Set.of("true", "1", "'t'", "'true'", "'1'");
    private static final Set<String> FALSE = Set.of("false", "0", "'f'", "'false'", "'0'");
    private static final Set<String> ZERO_ONE = Set.of("0", "1");

    private Flags() {
    }

    /** Whether the column holds yes or no: a boolean type, or numbers whose samples are only 0 and 1. */
    public static boolean is(Column c) {
        TypeClass type = TypeClass.of(c);
        return type == TypeClass.BOOLEAN
                || type == TypeClass.NUMBER && !c.samples().isEmpty() && ZERO_ONE.containsAll(c.samples());
    }

    /** What a literal as written says, when it is a yes/no one: TRUE, 1, 't', 'false' …; empty for anything else. */
    public static Optional<Boolean> truth(String literal) {
        String text = literal == null ? "" : literal.strip().toLowerCase(Locale.ROOT);
        return TRUE.contains(text) ? Optional.of(true) : FALSE.contains(text) ? Optional.of(false) : Optional.empty();
    }

    /** The value as a filter of the column holds it: a Boolean on a boolean type, 1 or 0 (a Long) on a number column. */
    public static Object value(Column c, boolean truth) {
        return TypeClass.of(c) == TypeClass.BOOLEAN ? (Object) truth : (Object) (truth ? 1L : 0L);
    }

    /** The value as SQL text: {@code true}/{@code false} on a boolean type, {@code 1}/{@code 0} on a number column. */
    public static String literal(Column c, boolean truth) {
        return String.valueOf(value(c, truth));
    }
}
