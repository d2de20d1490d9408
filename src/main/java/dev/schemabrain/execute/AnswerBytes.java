package dev.schemabrain.execute;

/** How many bytes a cell value takes in an answer: its UTF-8 length as JSON text, near enough for a budget. */
final class AnswerBytes {

    private AnswerBytes() {
    }

    static long of(Object value) {
        if (value == null) {
            return 4;
        }
        if (value instanceof String s) {
            return utf8(s) + 2;
        }
        return value.toString().length();
    }

    private static long utf8(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
        }
        return n;
    }
}
