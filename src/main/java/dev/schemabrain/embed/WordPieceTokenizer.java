package dev.schemabrain.embed;

import java.text.Normalizer;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * BERT's uncased WordPiece tokenizer in plain Java, as the model's tokenizer.json configures it (BertNormalizer with
 * lower-casing and accent stripping, BertPreTokenizer, WordPiece with "##" continuations and words of over 100
 * characters as [UNK]). It gives the ids of the text's tokens without [CLS] and [SEP]. Thread-safe.
 */
final class WordPieceTokenizer {

    static final String UNKNOWN = "[UNK]";
    private static final String CONTINUATION = "##";
    private static final int MAX_WORD_CHARS = 100;

    private final Map<String, Integer> ids;
    private final int unknown;

    /** @param vocabulary the tokens in id order */
    WordPieceTokenizer(List<String> vocabulary) {
        ids = new HashMap<>(vocabulary.size() * 2);
        for (int i = 0; i < vocabulary.size(); i++) {
            ids.putIfAbsent(vocabulary.get(i), i);
        }
        Integer unk = ids.get(UNKNOWN);
        if (unk == null) {
            throw new IllegalArgumentException("the vocabulary has no " + UNKNOWN + " token");
        }
        unknown = unk;
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
            Integer found = null;
            while (end > start) {
                String piece = start == 0 ? word.substring(0, end) : CONTINUATION + word.substring(start, end);
                found = ids.get(piece);
                if (found != null) {
                    break;
                }
                end = Character.isLowSurrogate(word.charAt(end - 1)) && end - 2 > start ? end - 2 : end - 1;
            }
            if (found == null) {
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
