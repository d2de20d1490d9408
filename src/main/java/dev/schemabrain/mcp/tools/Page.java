package dev.schemabrain.mcp.tools;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One page of a listing sorted by name, and the opaque cursor of the next one. The cursor holds the listing, the
 * position and the last name shown: when the list changed between calls the page resumes after that name, so a
 * semantic layer re-applied while an agent pages skips nothing and repeats nothing still there.
 *
 * @param from where the page starts in the list
 * @param to   where it ends (exclusive)
 */
record Page(int from, int to) {

    private static final String PREFIX = "v1:";

    /** Whether rows remain after this page. */
    boolean more(int size) {
        return to < size;
    }

    /**
     * The page of {@code list} a cursor (or none) and a limit select; empty when the cursor is not one this listing
     * gave.
     */
    static <T> Optional<Page> of(List<T> list, Function<T, String> name, String listing, Optional<String> cursor, int limit) {
        int from = 0;
        if (cursor.isPresent()) {
            Optional<Resume> resume = decode(cursor.get(), listing);
            if (resume.isEmpty()) {
                return Optional.empty();
            }
            from = resume.get().position(list, name);
        }
        return Optional.of(new Page(from, Math.min(list.size(), from + limit)));
    }

    /** The cursor of the page after this one. */
    <T> String next(List<T> list, Function<T, String> name, String listing) {
        String raw = PREFIX + listing + ":" + to + ":" + name.apply(list.get(to - 1));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
    }

    private record Resume(int at, String after) {

        /** The position itself while the name before it is still {@code after}; else the first name after it. */
        <T> int position(List<T> list, Function<T, String> name) {
            if (at <= list.size() && name.apply(list.get(at - 1)).equals(after)) {
                return at;
            }
            int i = 0;
            while (i < list.size() && name.apply(list.get(i)).compareTo(after) <= 0) {
                i++;
            }
            return i;
        }
    }

    private static Optional<Resume> decode(String cursor, String listing) {
        String raw;
        try {
            raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return Optional.empty();
        }
        String head = PREFIX + listing + ":";
        if (!raw.startsWith(head)) {
            return Optional.empty();
        }
        String rest = raw.substring(head.length());
        int colon = rest.indexOf(':');
        if (colon < 1 || colon == rest.length() - 1) {
            return Optional.empty();
        }
        try {
            int at = Integer.parseInt(rest.substring(0, colon));
            return at < 1 ? Optional.empty() : Optional.of(new Resume(at, rest.substring(colon + 1)));
        } catch (NumberFormatException notANumber) {
            return Optional.empty();
        }
    }
}
