package dev.schemabrain.source.ddl;

import dev.schemabrain.sql.lex.SqlLexer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts a script into statements at delimiters that stand outside quotes, comments and dollar-quoted
 * bodies, so that function bodies in a pg_dump file stay whole. Comments are dropped; psql
 * meta-command lines ({@code \connect}, {@code \restrict}), the data lines of {@code COPY ... FROM
 * stdin} and MySQL {@code DELIMITER} lines are skipped. MySQL's executable comments
 * ({@code /*!50001 CREATE ... *}{@code /}), where mysqldump puts its views, are read as code, as MySQL does.
 */
final class SqlSplitter {

    private static final Pattern DELIMITER_LINE = Pattern.compile("(?i)DELIMITER\\s+(\\S+)\\s*");
    private static final Pattern EXECUTABLE_COMMENT = Pattern.compile("/\\*M?!\\d*");
    private static final Pattern COPY_FROM_STDIN = Pattern.compile("(?is)COPY\\s.*\\bFROM\\s+stdin\\b.*");
    private static final Pattern CONFORMING_STRINGS =
            Pattern.compile("(?is)SET\\s+(?:SESSION\\s+)?standard_conforming_strings\\s*(?:=|TO)\\s*'?(on|off)'?");
    /** Signs of a MySQL dump, whose string literals use backslash escapes. */
    private static final Pattern MYSQL_FLAVOUR = Pattern.compile(
            "(?i)^-- (?:MySQL|MariaDB) dump|/\\*!\\d{5}|\\)\\s*ENGINE\\s*=|CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?`",
            Pattern.MULTILINE);

    private final String text;
    private final List<RawStatement> statements = new ArrayList<>();
    private final StringBuilder current = new StringBuilder();
    private boolean backslashEscapes;
    private String delimiter = ";";
    private int pos;
    private int line = 1;
    private int startLine;
    private boolean started;
    private boolean inExecutableComment;

    private SqlSplitter(String text) {
        this.text = text;
        this.backslashEscapes = MYSQL_FLAVOUR.matcher(text).find();
    }

    static List<RawStatement> split(String text) {
        SqlSplitter splitter = new SqlSplitter(text);
        splitter.run();
        return splitter.statements;
    }

    private void run() {
        while (pos < text.length()) {
            if (!started && atLineStart() && skipMetaLine()) {
                continue;
            }
            char c = text.charAt(pos);
            if (text.startsWith(delimiter, pos)) {
                pos += delimiter.length();
                finishStatement();
            } else if (c == '-' && text.startsWith("--", pos)) {
                skipLineComment();
            } else if (c == '/' && executableCommentEnd() > 0) {
                pos = executableCommentEnd();
                inExecutableComment = true;
                append(' ');
            } else if (c == '*' && inExecutableComment && text.startsWith("*/", pos)) {
                pos += 2;
                inExecutableComment = false;
                append(' ');
            } else if (c == '/' && text.startsWith("/*", pos)) {
                skipBlockComment();
            } else if (c == '\'') {
                copyQuoted('\'', backslashEscapes || escapePrefixed());
            } else if (c == '"' || c == '`') {
                copyQuoted(c, false);
            } else if (c == '$' && dollarTagAt(pos) != null) {
                copyDollarQuoted(dollarTagAt(pos));
            } else {
                append(c);
                pos++;
            }
        }
        finishStatement();
    }

    private boolean atLineStart() {
        return pos == 0 || text.charAt(pos - 1) == '\n';
    }

    /** Skips a psql meta-command or DELIMITER line; true when one was skipped. */
    private boolean skipMetaLine() {
        int end = lineEnd(pos);
        String lineText = text.substring(pos, end).strip();
        Matcher delimiterLine = DELIMITER_LINE.matcher(lineText);
        if (lineText.startsWith("\\")) {
            advanceTo(end);
            return true;
        }
        if (delimiterLine.matches()) {
            delimiter = delimiterLine.group(1);
            advanceTo(end);
            return true;
        }
        return false;
    }

    private void finishStatement() {
        String statement = current.toString().strip();
        current.setLength(0);
        started = false;
        if (statement.isEmpty()) {
            return;
        }
        statements.add(new RawStatement(statement, startLine, backslashEscapes));
        Matcher conforming = CONFORMING_STRINGS.matcher(statement);
        if (conforming.matches()) {
            backslashEscapes = conforming.group(1).toLowerCase(Locale.ROOT).equals("off");
        }
        if (COPY_FROM_STDIN.matcher(statement).matches()) {
            skipCopyData();
        }
    }

    /** COPY data runs from the next line to a line holding only {@code \.}. */
    private void skipCopyData() {
        advanceTo(lineEnd(pos));
        while (pos < text.length()) {
            int end = lineEnd(pos);
            boolean last = text.substring(pos, end).strip().equals("\\.");
            advanceTo(end);
            if (last) {
                return;
            }
        }
    }

    /** Where the opening {@code /*!50001} of a MySQL executable comment ends, or -1. */
    private int executableCommentEnd() {
        Matcher open = EXECUTABLE_COMMENT.matcher(text).region(pos, text.length());
        return open.lookingAt() ? open.end() : -1;
    }

    private void skipLineComment() {
        int end = text.indexOf('\n', pos);
        pos = end < 0 ? text.length() : end;
    }

    /** Block comments nest in PostgreSQL; a comment counts as a space so tokens do not merge. */
    private void skipBlockComment() {
        int depth = 0;
        while (pos < text.length()) {
            if (text.startsWith("/*", pos)) {
                depth++;
                pos += 2;
            } else if (text.startsWith("*/", pos)) {
                depth--;
                pos += 2;
                if (depth == 0) {
                    break;
                }
            } else {
                countLine(text.charAt(pos));
                pos++;
            }
        }
        append(' ');
    }

    private void copyQuoted(char quote, boolean escapes) {
        append(quote);
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            append(c);
            pos++;
            if (c == '\\' && escapes && pos < text.length()) {
                append(text.charAt(pos));
                pos++;
            } else if (c == quote) {
                if (pos < text.length() && text.charAt(pos) == quote) {
                    append(quote);
                    pos++;
                } else {
                    return;
                }
            }
        }
    }

    private void copyDollarQuoted(String tag) {
        int end = text.indexOf(tag, pos + tag.length());
        int stop = end < 0 ? text.length() : end + tag.length();
        while (pos < stop) {
            append(text.charAt(pos));
            pos++;
        }
    }

    /** {@code E'...'} (PostgreSQL escape string): the E must not end a longer word. */
    private boolean escapePrefixed() {
        int n = current.length();
        if (n == 0 || (current.charAt(n - 1) != 'E' && current.charAt(n - 1) != 'e')) {
            return false;
        }
        return n == 1 || !SqlLexer.isIdentifierPart(current.charAt(n - 2));
    }

    /** The {@code $tag$} starting at {@code at}, or null ({@code $1}, or a dollar inside a name). */
    private String dollarTagAt(int at) {
        if (at > 0 && SqlLexer.isIdentifierPart(text.charAt(at - 1))) {
            return null;
        }
        int end = at + 1;
        if (end < text.length() && (Character.isLetter(text.charAt(end)) || text.charAt(end) == '_')) {
            while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
                end++;
            }
        }
        return end < text.length() && text.charAt(end) == '$' ? text.substring(at, end + 1) : null;
    }

    private void append(char c) {
        if (!started && !Character.isWhitespace(c)) {
            started = true;
            startLine = line;
        }
        countLine(c);
        current.append(c);
    }

    private void countLine(char c) {
        if (c == '\n') {
            line++;
        }
    }

    private int lineEnd(int from) {
        int end = text.indexOf('\n', from);
        return end < 0 ? text.length() : end + 1;
    }

    private void advanceTo(int end) {
        while (pos < end) {
            countLine(text.charAt(pos));
            pos++;
        }
    }
}
