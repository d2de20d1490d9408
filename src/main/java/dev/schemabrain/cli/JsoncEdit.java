package dev.schemabrain.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Sets {@code root[serversKey][name]} in JSON-with-comments text by editing only the text of that one member, so
 * the comments, trailing commas and layout of everything else stay byte for byte. Jackson reads JSONC but cannot
 * write it back, and a full JSONC writer would be far larger than this splice; the caller checks the result by
 * parsing it again. The text must already have parsed as a JSONC object whose servers member, if any, is an object.
 */
final class JsoncEdit {

    private record Member(String key, int keyStart, int valueStart, int valueEnd) {
    }

    private final String text;

    private JsoncEdit(String text) {
        this.text = text;
    }

    static String set(String text, String serversKey, String name, JsonNode entry) {
        return new JsoncEdit(text).set(serversKey, name, entry);
    }

    private String set(String serversKey, String name, JsonNode entry) {
        int rootOpen = skipTrivia(0);
        List<Member> root = members(rootOpen);
        String unit = root.isEmpty() ? "  " : indentOf(root.get(0).keyStart());
        if (unit.isEmpty()) {
            unit = "  ";
        }
        Member servers = last(root, serversKey);
        if (servers == null) {
            String inner = indentOf(rootOpen) + unit;
            String member = quote(serversKey) + ": {\n" + inner + unit + quote(name) + ": "
                    + render(entry, inner + unit, unit) + "\n" + inner + "}";
            return insert(rootOpen, root, member, unit);
        }
        List<Member> entries = members(servers.valueStart());
        Member ours = last(entries, name);
        if (ours != null) {
            return text.substring(0, ours.valueStart()) + render(entry, indentOf(ours.keyStart()), unit)
                    + text.substring(ours.valueEnd());
        }
        String inner = entries.isEmpty() ? indentOf(servers.keyStart()) + unit : indentOf(entries.get(entries.size() - 1).keyStart());
        return insert(servers.valueStart(), entries, quote(name) + ": " + render(entry, inner, unit), unit);
    }

    /** Adds {@code member} to the object opening at {@code open}: after its last member's value, or after the brace. */
    private String insert(int open, List<Member> members, String member, String unit) {
        if (members.isEmpty()) {
            String inner = indentOf(open) + unit;
            return text.substring(0, open + 1) + "\n" + inner + member + "\n" + indentOf(open) + text.substring(open + 1);
        }
        Member lastMember = members.get(members.size() - 1);
        // An existing trailing comma now follows our member, which JSONC allows.
        return text.substring(0, lastMember.valueEnd()) + ",\n" + indentOf(lastMember.keyStart()) + member
                + text.substring(lastMember.valueEnd());
    }

    private static Member last(List<Member> members, String key) {
        Member found = null;
        for (Member m : members) {
            if (m.key().equals(key)) {
                found = m; // Jackson keeps the last of duplicate keys, so the edit does too.
            }
        }
        return found;
    }

    /** The members of the object whose '{' is at {@code open}. */
    private List<Member> members(int open) {
        List<Member> members = new ArrayList<>();
        int i = skipTrivia(open + 1);
        while (text.charAt(i) != '}') {
            int keyEnd = stringEnd(i);
            String key;
            try {
                key = ClientConfigFile.JSON.readValue(text.substring(i, keyEnd), String.class);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("a key that parsed before does not parse now", e);
            }
            int valueStart = skipTrivia(skipTrivia(keyEnd) + 1);
            int valueEnd = valueEnd(valueStart);
            members.add(new Member(key, i, valueStart, valueEnd));
            i = skipTrivia(valueEnd);
            if (text.charAt(i) == ',') {
                i = skipTrivia(i + 1);
            }
        }
        return members;
    }

    private int skipTrivia(int i) {
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || c == '\uFEFF') {
                i++;
            } else if (text.startsWith("//", i)) {
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? text.length() : eol + 1;
            } else if (text.startsWith("/*", i)) {
                i = text.indexOf("*/", i + 2) + 2;
            } else {
                break;
            }
        }
        return i;
    }

    private int stringEnd(int i) {
        for (int j = i + 1; ; j++) {
            char c = text.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == '"') {
                return j + 1;
            }
        }
    }

    private int valueEnd(int i) {
        char c = text.charAt(i);
        if (c == '"') {
            return stringEnd(i);
        }
        if (c == '{' || c == '[') {
            int depth = 0;
            for (int j = i; ; ) {
                j = skipTrivia(j);
                char d = text.charAt(j);
                if (d == '"') {
                    j = stringEnd(j);
                    continue;
                }
                if (d == '{' || d == '[') {
                    depth++;
                } else if ((d == '}' || d == ']') && --depth == 0) {
                    return j + 1;
                }
                j++;
            }
        }
        int j = i;
        while (j < text.length() && ",}] \t\r\n/".indexOf(text.charAt(j)) < 0) {
            j++;
        }
        return j;
    }

    /** The spaces or tabs that open the line holding offset {@code i}. */
    private String indentOf(int i) {
        int start = text.lastIndexOf('\n', i) + 1;
        int end = start;
        while (end < i && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
            end++;
        }
        return text.substring(start, end);
    }

    private static String quote(String s) {
        try {
            return ClientConfigFile.JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entry pretty-printed with the file's indent unit, its lines after the first indented by {@code indent}. */
    private static String render(JsonNode entry, String indent, String unit) {
        DefaultIndenter indenter = new DefaultIndenter(unit, "\n" + indent);
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(indenter).withArrayIndenter(indenter);
        try {
            return ClientConfigFile.JSON.writer(printer).writeValueAsString(entry);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
