package dev.schemabrain.sql.guard;

import dev.schemabrain.sql.lex.Lexical;
import dev.schemabrain.sql.lex.Quoting;
import dev.schemabrain.sql.lex.SqlLexer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads the raw text before any parser does, for what a parser throws away or an engine reads differently:
 * a second statement, MySQL's executable comments ({@code /*!}, {@code /*M!}), comments that nest in one engine
 * and not in another, MySQL's {@code #} and space-less {@code --}, and the words of INTO OUTFILE and locking
 * clauses. The text is read twice, with and without backslash escapes in string literals, and refused if either
 * reading finds trouble: a server's quoting mode is not something the caller should be able to bet on.
 */
final class Prescreen {

    private Prescreen() {
    }

    /** Deeper nesting of parentheses than any analyst writes; JSqlParser takes seconds on a few thousand levels. */
    static final int MAX_DEPTH = 64;

    static Optional<Refusal> check(String sql, Lexical engine) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                // A NUL ends the text early for C-level parsers: the engine and the checker would read different SQL.
                return Optional.of(Refusal.of(Refusal.Reason.SYNTAX_ERROR, "The SQL holds a control character"
                        + " (code " + (int) c + "); remove it."));
            }
        }
        Optional<Refusal> first = read(sql, engine, engine.backslashEscapes());
        if (first.isPresent()) {
            return first;
        }
        return read(sql, engine, !engine.backslashEscapes());
    }

    private static final class Unterminated extends RuntimeException {
        Unterminated() {
            super(null, null, false, false);
        }
    }

    private static Optional<Refusal> read(String sql, Lexical engine, boolean backslashEscapes) {
        List<String> words = new ArrayList<>();
        boolean ended = false;   // a ';' was seen: from here on only blanks, comments and ';' may follow
        int depth = 0;
        int i = 0;
        int n = sql.length();
        try {
            while (i < n) {
                char c = sql.charAt(i);
                char next = i + 1 < n ? sql.charAt(i + 1) : '\0';
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '/' && next == '*') {
                    int close = blockComment(sql, i, engine);
                    if (close < 0) {
                        return Optional.of(Refusal.of(Refusal.Reason.EXECUTABLE_COMMENT,
                                "The SQL holds an executable comment, an optimizer hint or a nested comment (/*! */,"
                                        + " /*M! */, /*+ */ or /* inside a comment), which engines act on or read"
                                        + " differently; remove the comment."));
                    }
                    i = close;
                } else if (c == '-' && next == '-') {
                    // Refused, not read as the engine would: a reader who takes it for a comment is misled.
                    if (!engine.dashDashComment(sql, i)) {
                        return Optional.of(Refusal.of(Refusal.Reason.EXECUTABLE_COMMENT,
                                "MySQL reads '--' without a following space as two minus signs, not a comment;"
                                        + " put a space after '--' or remove it."));
                    }
                    i = Quoting.lineEnd(sql, i);
                } else if (c == '#' && engine.hashComments()) {
                    return Optional.of(Refusal.of(Refusal.Reason.EXECUTABLE_COMMENT,
                            "MySQL '#' comments are not accepted; use '-- ' comments instead."));
                } else if (ended) {
                    if (c != ';') {
                        return Optional.of(Refusal.of(Refusal.Reason.NOT_A_SINGLE_SELECT,
                                "The SQL holds more than one statement; send one SELECT without a second"
                                        + " statement after ';'."));
                    }
                    i++;
                } else if (c == ';') {
                    ended = true;
                    i++;
                } else if (c == '\'') {
                    i = closed(Quoting.quotedEnd(sql, i + 1, '\'', backslashEscapes));
                } else if (engine.escapeStringAt(sql, i)) {
                    i = closed(Quoting.quotedEnd(sql, i + 2, '\'', true));
                } else if (c == '"' || c == '`') {
                    i = closed(Quoting.quotedEnd(sql, i + 1, c, c == '"' && engine.doubleQuotedStrings() && backslashEscapes));
                } else if (c == '$' && engine.dollarQuotes()
                        && (i == 0 || !SqlLexer.isIdentifierPart(sql.charAt(i - 1)))) {
                    i = dollar(sql, i);
                } else if (c == '(' || c == ')') {
                    depth += c == '(' ? 1 : -1;
                    if (depth > MAX_DEPTH) {
                        return Optional.of(Refusal.of(Refusal.Reason.SYNTAX_ERROR, "The SQL nests parentheses more"
                                + " than " + MAX_DEPTH + " deep; flatten it, e.g. with CTEs."));
                    }
                    i++;
                } else if (SqlLexer.isIdentifierPart(c)) {
                    int start = i;
                    while (i < n && SqlLexer.isIdentifierPart(sql.charAt(i))) {
                        i++;
                    }
                    words.add(sql.substring(start, i).toUpperCase(Locale.ROOT));
                } else {
                    i++;
                }
            }
        } catch (Unterminated e) {
            // This reading does not close a literal: an engine reading it so would fail to parse, the parser decides.
            return Optional.empty();
        }
        return wordChecks(words);
    }

    private static final java.util.Set<String> DML = java.util.Set.of(
            "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "TRUNCATE", "COPY");

    private static Optional<Refusal> wordChecks(List<String> words) {
        String first = words.isEmpty() ? "" : words.get(0);
        if (DML.contains(first)) {
            return Optional.of(Refusal.of(Refusal.Reason.DML_IN_STATEMENT,
                    "The statement starts with " + first + ", which changes data; only SELECT is allowed."));
        }
        if (!first.equals("SELECT") && !first.equals("WITH") && !first.equals("VALUES")) {
            return Optional.of(Refusal.of(Refusal.Reason.NOT_A_SINGLE_SELECT, first.isEmpty()
                    ? "The SQL holds no statement; send one SELECT."
                    : "The statement starts with " + first + ", not SELECT or WITH; send one SELECT."));
        }
        for (int w = 0; w < words.size(); w++) {
            String word = words.get(w);
            String next = w + 1 < words.size() ? words.get(w + 1) : "";
            String third = w + 2 < words.size() ? words.get(w + 2) : "";
            if (word.equals("INTO") && (next.equals("OUTFILE") || next.equals("DUMPFILE"))) {
                return Optional.of(Refusal.of(Refusal.Reason.INTO_OUTFILE,
                        "SELECT ... INTO " + next + " writes a file on the database server; remove the INTO clause."));
            }
            if (word.equals("FOR") && (next.equals("UPDATE") || next.equals("SHARE")
                    || (next.equals("NO") && third.equals("KEY")) || (next.equals("KEY") && third.equals("SHARE")))) {
                return Optional.of(lockingClause());
            }
            if (word.equals("LOCK") && next.equals("IN") && third.equals("SHARE")) {
                return Optional.of(lockingClause());
            }
        }
        return Optional.empty();
    }

    static Refusal lockingClause() {
        return Refusal.of(Refusal.Reason.LOCKING_CLAUSE,
                "A locking clause (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) takes row locks; remove it, reads need none.");
    }

    /** The index after the comment starting at {@code start}, or -1 when it is executable or holds another opener. */
    private static int blockComment(String sql, int start, Lexical engine) {
        int i = start + 2;
        if (sql.startsWith("!", i) || sql.startsWith("M!", i) || sql.startsWith("+", i)) {
            return -1;   // executable, or an optimizer hint: MySQL's SET_VAR hint changes session settings
        }
        int end = closed(Quoting.blockCommentEnd(sql, start, false));
        if (sql.substring(i, end - 2).contains("/*")) {
            return -1;   // nests in PostgreSQL and DuckDB, not in MySQL, SQLite or the parser: refused everywhere
        }
        return end;
    }

    /** Past a literal or quoted name; a reading that does not close it stops here. */
    private static int closed(int end) {
        if (end < 0) {
            throw new Unterminated();
        }
        return end;
    }

    /** A dollar-quoted literal ({@code $tag$ ... $tag$}), or just past the '$' when none starts here ({@code $1}). */
    private static int dollar(String sql, int start) {
        String tag = Quoting.dollarTag(sql, start);
        return tag == null ? start + 1 : closed(Quoting.dollarEnd(sql, start, tag));
    }
}
