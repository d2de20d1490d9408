package dev.schemabrain.embed;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;

/**
 * BERT's uncased WordPiece tokenizer in plain Java, as the model's tokenizer.json configures it (BertNormalizer with
 * lower-casing and accent stripping, BertPreTokenizer, WordPiece with "##" continuations and words of over 100
 * characters as [UNK]). It gives the ids of the text's tokens without [CLS] and [SEP]. Thread-safe.
 */
final class WordPieceTokenizer {

    static final String UNKNOWN = "[UNK]";
    private static final String CONTINUATION = "##";
    private static final int MAX_WORD_CHARS = 100;

    /**
     * The vocabulary as one string, tokens joined by '\n', found through an open-addressing table of ids: about 2 MB
     * for the static table's 91,000 tokens where a HashMap of Strings took 10 (a lookup allocates nothing).
     */
    private final char[] tokens;
    /** Where token i starts in {@link #tokens}; entry n is one past the end. */
    private final int[] starts;
    /** Token id + 1 at its hash's slot (0: empty); a power of two at least twice the vocabulary. */
    private final int[] slots;
    private final int unknown;

    /** @param vocabulary the tokens in id order */
    WordPieceTokenizer(List<String> vocabulary) {
        this(String.join("\n", vocabulary));
    }

    /** @param joined the tokens in id order, joined by '\n' */
    WordPieceTokenizer(String joined) {
        this.tokens = joined.toCharArray();
        int n = 1;
        for (int i = 0; i < joined.length(); i++) {
            if (joined.charAt(i) == '\n') {
                n++;
            }
        }
        starts = new int[n + 1];
        for (int i = 0, t = 1; i < joined.length(); i++) {
            if (joined.charAt(i) == '\n') {
                starts[t++] = i + 1;
            }
        }
        starts[n] = joined.length() + 1;
        slots = new int[Integer.highestOneBit(Math.max(2, n) * 2) * 2];
        int mask = slots.length - 1;
        for (int id = 0; id < n; id++) {
            int from = starts[id];
            int to = starts[id + 1] - 1;
            int slot = hash(joined, from, to, false) & mask;
            while (true) {
                if (slots[slot] == 0) {
                    slots[slot] = id + 1;
                    break;
                }
                if (same(slots[slot] - 1, joined, from, to, false)) {
                    break; // a repeated token keeps its first id
                }
                slot = (slot + 1) & mask;
            }
        }
        int unk = id(UNKNOWN, 0, UNKNOWN.length(), false);
        if (unk < 0) {
            throw new IllegalArgumentException("the vocabulary has no " + UNKNOWN + " token");
        }
        unknown = unk;
    }

    /** The id of [UNK]. */
    int unknownId() {
        return unknown;
    }

    /** The id of a vocabulary entry as written ("##s" included); -1 when it is none. */
    int tokenId(String token) {
        return id(token, 0, token.length(), false);
    }

    /** The id of {@code text[from, to)}, with "##" before it when {@code continuation}; -1 when it is no token. */
    private int id(String text, int from, int to, boolean continuation) {
        int mask = slots.length - 1;
        int slot = hash(text, from, to, continuation) & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if (same(entry - 1, text, from, to, continuation)) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    private boolean same(int id, String text, int from, int to, boolean continuation) {
        int start = starts[id];
        int length = starts[id + 1] - 1 - start;
        int prefix = continuation ? CONTINUATION.length() : 0;
        if (length != prefix + to - from) {
            return false;
        }
        char[] t = tokens;
        for (int i = 0; i < prefix; i++) {
            if (t[start + i] != '#') {
                return false;
            }
        }
        for (int i = start + prefix, j = from; j < to; i++, j++) {
            if (t[i] != text.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(String text, int from, int to, boolean continuation) {
        int h = continuation ? '#' * 31 + '#' : 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + text.charAt(i);
        }
        return h ^ (h >>> 16);
    }

    /** The token ids of {@code text}, in order. */
    int[] ids(String text) {
        String normal = normalize(text);
        IntList out = new IntList(normal.length() / 4 + 4);
        int start = -1;
        for (int i = 0; i < normal.length(); ) {
            int cp = normal.codePointAt(i);
            int next = i + Character.charCount(cp);
            if (cp == ' ') {
                if (start >= 0) {
                    wordPiece(normal.substring(start, i), out);
                    start = -1;
                }
            } else if (isPunctuation(cp)) {
                if (start >= 0) {
                    wordPiece(normal.substring(start, i), out);
                    start = -1;
                }
                wordPiece(normal.substring(i, next), out);
            } else if (start < 0) {
                start = i;
            }
            i = next;
        }
        if (start >= 0) {
            wordPiece(normal.substring(start), out);
        }
        return out.toArray();
    }

    /** Greedy longest-match-first; a word with a part the vocabulary lacks becomes one [UNK]. */
    private void wordPiece(String word, IntList out) {
        if (word.codePointCount(0, word.length()) > MAX_WORD_CHARS) {
            out.add(unknown);
            return;
        }
        int mark = out.size();
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            int found = -1;
            while (end > start) {
                found = id(word, start, end, start > 0);
                if (found >= 0) {
                    break;
                }
                end = Character.isLowSurrogate(word.charAt(end - 1)) && end - 2 > start ? end - 2 : end - 1;
            }
            if (found < 0) {
                out.truncate(mark);
                out.add(unknown);
                return;
            }
            out.add(found);
            start = end;
        }
    }

    /** BertNormalizer: clean the text, space out CJK characters, strip accents, lower-case; whitespace becomes ' '. */
    static String normalize(String text) {
        StringBuilder b = new StringBuilder(text.length() + 8);
        text.codePoints().forEach(cp -> {
            if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
                return;
            }
            if (isWhitespace(cp)) {
                b.append(' ');
            } else if (isCjk(cp)) {
                b.append(' ').appendCodePoint(cp).append(' ');
            } else {
                b.appendCodePoint(cp);
            }
        });
        String s = b.toString();
        if (!isAscii(s)) {
            String decomposed = Normalizer.normalize(s, Normalizer.Form.NFD);
            StringBuilder stripped = new StringBuilder(decomposed.length());
            decomposed.codePoints().filter(cp -> Character.getType(cp) != Character.NON_SPACING_MARK)
                    .forEach(stripped::appendCodePoint);
            s = stripped.toString();
        }
        return s.toLowerCase(Locale.ROOT);
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 127) {
                return false;
            }
        }
        return true;
    }

    private static boolean isWhitespace(int cp) {
        return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || Character.getType(cp) == Character.SPACE_SEPARATOR;
    }

    private static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        int type = Character.getType(cp);
        return type == Character.CONTROL || type == Character.FORMAT;
    }

    static boolean isPunctuation(int cp) {
        if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
            return true;
        }
        switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION:
            case Character.DASH_PUNCTUATION:
            case Character.START_PUNCTUATION:
            case Character.END_PUNCTUATION:
            case Character.INITIAL_QUOTE_PUNCTUATION:
            case Character.FINAL_QUOTE_PUNCTUATION:
            case Character.OTHER_PUNCTUATION:
                return true;
            default:
                return false;
        }
    }

    private static boolean isCjk(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }

    /** A growable int array: token lists are short and boxed lists would dominate the embed's cost. */
    private static final class IntList {
        private int[] a;
        private int n;

        IntList(int capacity) {
            a = new int[Math.max(capacity, 4)];
        }

        void add(int v) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        int size() {
            return n;
        }

        void truncate(int size) {
            n = size;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(a, n);
        }
    }
}
