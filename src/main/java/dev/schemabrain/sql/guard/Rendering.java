package dev.schemabrain.sql.guard;

import dev.schemabrain.catalog.QualifiedName;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What runs is what was checked: the checked tree is written out again by SchemaBrain, never the
 * caller's bytes. Every string literal is re-emitted in its engine's one canonical form from the value the guard
 * read, every table bound to the catalog under its catalog name, every other name in the engine's own quotes (or as
 * a plain word); then every text left anywhere in the tree must be a plain word or symbol, so a raw field of a node
 * this class was not taught (a quote, a backslash, a bracket, a dollar, a comment) refuses the statement. The
 * literals written are returned, for {@link LexicalCheck} to compare with what the engine's lexer reads.
 */
final class Rendering {

    /** The literal values written, in no particular order. */
    record Literals(List<String> values) {
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_]*");
    private static final Pattern HEX = Pattern.compile("(?i)(x'[0-9a-f]*'|0x[0-9a-f]+)");
    /** What a date, time or interval literal may hold: digits, words, signs and separators. */
    private static final Pattern TEMPORAL = Pattern.compile("[0-9A-Za-z :.+\\-/]*");
    /** Characters no text of a node may hold unless this class wrote it: quotes, escapes, comments, statement ends. */
    private static final Pattern RAW = Pattern.compile("['\"`\\[\\]\\\\$;#]|--|/\\*|\\*/|[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f]");

    private final SqlRules rules;
    private final Map<Table, QualifiedName> bound;
    private final List<String> literals = new ArrayList<>();
    private final Set<Object> written = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<String> quotedNames = new HashSet<>();

    private Rendering(SqlRules rules, Map<Table, QualifiedName> bound) {
        this.rules = rules;
        this.bound = bound;
    }

    /**
     * Rewrites {@code root}'s literals and names in place into the engine's canonical forms.
     *
     * @param bound the tables the binder bound to the catalog, by node
     * @throws Binder.Refused when a literal or name has no canonical form, or a text of the tree is raw
     */
    static Literals canonicalize(Statement root, SqlRules rules, Map<Table, QualifiedName> bound) {
        Rendering r = new Rendering(rules, bound);
        List<Object> nodes = AstCensus.nodes(root);
        for (Object node : nodes) {
            r.write(node);
        }
        for (Object node : nodes) {
            if (!r.written.contains(node)) {
                r.screen(node);
            }
        }
        return new Literals(List.copyOf(r.literals));
    }

    private void write(Object node) {
        if (node instanceof StringValue s) {
            string(s);
        } else if (node instanceof DateTimeLiteralExpression d) {
            String value = temporal(d.getValue());
            d.setValue(literal(value));
            written.add(d);
        } else if (node instanceof IntervalExpression i && i.getParameter() != null) {
            String p = i.getParameter();
            if (p.startsWith("'")) {
                i.setParameter(literal(temporal(p)));
            } else if (!p.matches("[0-9]+")) {
                throw refuse("an interval of " + p);
            }
            written.add(i);
        } else if (node instanceof HexValue h) {
            if (!HEX.matcher(h.getValue()).matches()) {
                throw refuse("the hexadecimal literal " + h.getValue());
            }
            String v = h.getValue();
            if (v.startsWith("'", 1)) {
                literals.add(v.substring(2, v.length() - 1));
            }
            written.add(h);
        } else if (node instanceof Table t) {
            table(t);
        } else if (node instanceof Column c) {
            c.setColumnName(name(c.getColumnName()));
        } else if (node instanceof Alias a) {
            a.setName(name(a.getName()));
            if (a.getAliasColumns() != null) {
                a.getAliasColumns().replaceAll(col -> new Alias.AliasColumn(name(col.name), col.colDataType));
            }
        } else if (node instanceof Function f && f.getName() != null && !WORD.matcher(f.getName()).matches()) {
            throw refuse("the function name " + f.getName());
        }
    }

    /** Re-emits a string literal from the value the guard read, in the engine's form; bit and hex strings stay. */
    private void string(StringValue s) {
        String prefix = s.getPrefix() == null ? "" : s.getPrefix();
        String quote = s.getQuoteStr() == null ? "'" : s.getQuoteStr();
        String raw = s.getValue() == null ? "" : s.getValue();
        String value;
        if (!quote.equals("'")) {
            value = raw;   // dollar-quoted: verbatim, no doubling
            if (!prefix.isEmpty()) {
                throw refuse("a prefixed dollar-quoted literal");
            }
        } else {
            switch (prefix.toUpperCase(Locale.ROOT)) {
                case "", "N" -> value = raw.replace("''", "'");
                case "E" -> value = unescape(raw);
                case "X", "B" -> {
                    if (!raw.matches(prefix.equalsIgnoreCase("X") ? "[0-9A-Fa-f]*" : "[01]*")) {
                        throw refuse("the " + prefix + "'...' literal");
                    }
                    literals.add(raw);
                    written.add(s);
                    return;
                }
                default -> throw refuse("a string literal with the prefix " + prefix);
            }
        }
        String text = literal(value);
        int open = text.indexOf('\'');
        s.setPrefix(open == 0 ? null : text.substring(0, open));
        s.setQuoteStr("'");
        s.setValue(text.substring(open + 1, text.length() - 1));
        written.add(s);
    }

    /** The engine's literal for {@code value}, recorded; refused when the engine has no unambiguous one. */
    private String literal(String value) {
        if (value.indexOf('\0') >= 0) {
            throw refuse("a string literal holding a NUL character");
        }
        Optional<String> text = rules.string(value);
        if (text.isEmpty()) {
            throw new Binder.Refused(Refusal.of(Refusal.Reason.SYNTAX_ERROR, "A string literal holds a backslash, which "
                    + rules.title() + " servers read in two ways depending on their settings; write the query without"
                    + " it (for a LIKE pattern, choose another ESCAPE character)."));
        }
        literals.add(value);
        return text.get();
    }

    /** The value of a date, time or interval literal written {@code '...'}: plain characters only. */
    private String temporal(String quoted) {
        if (quoted == null || quoted.length() < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) {
            throw refuse("the date, time or interval literal " + quoted);
        }
        String value = quoted.substring(1, quoted.length() - 1);
        if (!TEMPORAL.matcher(value).matches()) {
            throw refuse("the date, time or interval literal " + quoted);
        }
        return value;
    }

    private void table(Table t) {
        QualifiedName q = bound.get(t);
        if (q != null) {
            t.setSchemaName(quoted(q.schema()));
            t.setName(quoted(q.table()));
        } else {
            if (t.getSchemaName() != null) {
                t.setSchemaName(name(t.getSchemaName()));
            }
            if (t.getName() != null) {
                t.setName(name(t.getName()));
            }
        }
        written.add(t);
    }

    /** A name as written by the caller, in canonical form: a plain word stays, a quoted one is quoted our way. */
    private String name(String written) {
        if (written == null || WORD.matcher(written).matches()) {
            return written;
        }
        if (written.length() >= 2) {
            char first = written.charAt(0);
            char last = written.charAt(written.length() - 1);
            String inner = written.substring(1, written.length() - 1);
            if (first == '"' && last == '"') {
                return quoted(inner.replace("\"\"", "\""));
            }
            if (first == '`' && last == '`') {
                return quoted(inner.replace("``", "`"));
            }
            if (first == '[' && last == ']' && rules.lexical().bracketIdentifiers()) {
                return quoted(inner);
            }
        }
        throw refuse("the name " + written);
    }

    private String quoted(String name) {
        if (name.isEmpty() || name.chars().anyMatch(ch -> ch < 0x20)) {
            throw refuse("an empty name or one holding a control character");
        }
        String q = rules.quote(name);
        quotedNames.add(q);
        return q;
    }

    /** Every text of a node this class did not write must be plain: a raw one means a form it was not taught. */
    private void screen(Object node) {
        for (String text : AstCensus.texts(node)) {
            if (text != null && RAW.matcher(text).find() && !quotedNames.contains(text)
                    && !isQualifiedOfOurs(text)) {
                throw refuse("the text " + abbreviate(text));
            }
        }
    }

    /** A qualified name JSqlParser keeps whole ({@code "public"."t"}) made of names this class wrote. */
    private boolean isQualifiedOfOurs(String text) {
        for (String q : quotedNames) {
            text = text.replace(q, "");
        }
        return !RAW.matcher(text).find();
    }

    private static String abbreviate(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    private Binder.Refused refuse(String what) {
        return new Binder.Refused(Refusal.of(Refusal.Reason.UNSUPPORTED_CONSTRUCT, "The query holds " + abbreviate(what)
                + ", which SchemaBrain cannot write back in a form " + rules.title() + " is sure to read the same way;"
                + " write it as a plain literal ('text', 123, DATE '2024-01-31') or a plain or double-quoted name."));
    }

    /** The value of an {@code E'...'} literal: backslash escapes as PostgreSQL reads them, {@code ''} as a quote. */
    static String unescape(String raw) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < raw.length()) {
            char c = raw.charAt(i);
            if (c == '\'' && i + 1 < raw.length() && raw.charAt(i + 1) == '\'') {
                out.append('\'');
                i += 2;
            } else if (c != '\\') {
                out.append(c);
                i++;
            } else {
                if (i + 1 >= raw.length()) {
                    throw new Binder.Refused(Refusal.of(Refusal.Reason.SYNTAX_ERROR, "An E'...' literal ends in a"
                            + " backslash, which engines read as escaping the closing quote; write a quote as ''."));
                }
                char e = raw.charAt(i + 1);
                i += 2;
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'x' -> {
                        int end = i;
                        while (end < raw.length() && end < i + 2 && Character.digit(raw.charAt(end), 16) >= 0) {
                            end++;
                        }
                        if (end == i) {
                            out.append('x');
                        } else {
                            out.append((char) Integer.parseInt(raw.substring(i, end), 16));
                            i = end;
                        }
                    }
                    case 'u', 'U' -> {
                        int len = e == 'u' ? 4 : 8;
                        if (i + len > raw.length() || !raw.substring(i, i + len).matches("[0-9A-Fa-f]+")) {
                            throw new Binder.Refused(Refusal.of(Refusal.Reason.SYNTAX_ERROR, "An E'...' literal"
                                    + " holds a malformed \\" + e + " escape; write the character itself."));
                        }
                        out.appendCodePoint(Integer.parseInt(raw.substring(i, i + len), 16));
                        i += len;
                    }
                    default -> {
                        if (e >= '0' && e <= '7') {
                            int end = i - 1;
                            while (end < raw.length() && end < i + 2 && raw.charAt(end) >= '0' && raw.charAt(end) <= '7') {
                                end++;
                            }
                            out.append((char) (Integer.parseInt(raw.substring(i - 1, end), 8) & 0xff));
                            i = end;
                        } else {
                            out.append(e);   // \\, \' and any other character stand for themselves
                        }
                    }
                }
            }
        }
        return out.toString();
    }
}
