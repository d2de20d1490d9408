package dev.schemabrain.audit;

/**
 * Text a client chose (its name and version, a tool name it made up) made safe to store and print:
 * control characters, escape sequences, bidirectional and zero-width formatting and line separators
 * become '?', and the text is cut to a bound, so one client can neither fill the disk through every
 * audit row nor forge lines in a terminal.
 */
public final class ClientText {

    /** The longest client-supplied text kept, in characters. */
    public static final int MAX = 128;

    private ClientText() {
    }

    /** Null stays null. */
    public static String clean(String text) {
        return clean(text, MAX);
    }

    public static String clean(String text, int max) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max + 1));
        int count = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (count == max) {
                out.append('…');
                break;
            }
            out.appendCodePoint(safe(cp) ? cp : '?');
            count++;
        }
        return out.toString();
    }

    private static boolean safe(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                 Character.SURROGATE, Character.UNASSIGNED, Character.PRIVATE_USE -> false;
            default -> true;
        };
    }
}
