package dev.schemabrain.semantic.project;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schemabrain.error.SemanticProjectException;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.reader.ReaderException;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Binds one semantic object's text (a YAML file, or the store's JSON) to its {@link SemanticFiles} record,
 * strictly: unknown and duplicate keys, anchors, aliases, tags and a second document all fail. Every
 * failure is one sentence naming the file, the key path ({@code filters[1].op}) and, for files, the line.
 */
final class SemanticFileReader {

    /** A semantic object file is a few hundred bytes; anything near this (1 MiB) is not one. */
    static final int MAX_CHARS = 1 << 20;
    private static final int MAX_DEPTH = 32;
    /** The deepest an object goes is 4 (filters[0].value[0]); the parser's own stop is {@link #MAX_DEPTH}. */
    private static final int MAX_OBJECT_DEPTH = 8;

    static final ObjectMapper YAML = configure(new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .streamReadConstraints(constraints())
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build()));
    static final ObjectMapper JSON = configure(new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(constraints()).build()));

    private SemanticFileReader() {
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions o = new LoaderOptions();
        o.setMaxAliasesForCollections(0);  // billion laughs: aliases are refused anyway, this is the parser's own stop
        o.setAllowRecursiveKeys(false);
        o.setNestingDepthLimit(MAX_DEPTH);
        o.setCodePointLimit(MAX_CHARS);
        return o;
    }

    private static StreamReadConstraints constraints() {
        return StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxStringLength(MAX_CHARS).build();
    }

    private static ObjectMapper configure(ObjectMapper m) {
        return m.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY);  // identity: id, without brackets
    }

    /** A bound object with the line of every key path, for problems found after binding. */
    record Bound<T>(T value, String where, Map<String, Integer> lines) {

        SemanticProjectException fail(String path, String what) {
            return new SemanticProjectException(message(where, lineOf(path), path, what));
        }

        /** The line of {@code path}, or of its nearest ancestor when the key is missing; 0 when unknown. */
        private int lineOf(String path) {
            for (String p = path; ; p = parent(p)) {
                Integer line = lines.get(p);
                if (line != null) {
                    return line;
                }
                if (p.isEmpty()) {
                    return 0;
                }
            }
        }

        private static String parent(String path) {
            int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
            return cut < 0 ? "" : path.substring(0, cut);
        }
    }

    /** @param where the file (or store row) being read, for messages */
    static <T> Bound<T> read(String text, Class<T> type, String where, Format format) throws SemanticProjectException {
        if (text.length() > MAX_CHARS) {
            throw tooLarge(where);
        }
        ObjectMapper mapper = format == Format.YAML ? YAML : JSON;
        Map<String, Integer> lines = new HashMap<>();
        try {
            try (JsonParser p = mapper.createParser(text)) {
                scan(p, where, format, lines);
            }
            return new Bound<>(mapper.readValue(text, type), where, format == Format.YAML ? lines : Map.of());
        } catch (UnrecognizedPropertyException e) {
            List<String> known = e.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            throw fail(e, where, format, lines, "is not a known key; the keys are " + String.join(", ", known));
        } catch (MismatchedInputException e) {
            throw fail(e, where, format, lines, "must be " + expected(e.getTargetType()));
        } catch (JsonMappingException e) {
            throw fail(e, where, format, lines, "cannot be read (" + firstLine(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw notValid(e, text, where, format);
        }
    }

    private static SemanticProjectException notValid(IOException e, String text, String where, Format format) {
        int line = e instanceof JsonProcessingException j && j.getLocation() != null ? j.getLocation().getLineNr() : 0;
        String detail = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        // SnakeYAML's problem and its mark say what is wrong and where; Jackson's first line is the context.
        if (e.getCause() instanceof MarkedYAMLException m && m.getProblem() != null) {
            detail = m.getProblem();
            line = m.getProblemMark() == null ? line : m.getProblemMark().getLine() + 1;
        } else if (e.getCause() instanceof ReaderException r) {
            detail = String.format("the character U+%04X is not allowed", r.getCodePoint());
            line = 1 + (int) text.codePoints().limit(r.getPosition()).filter(c -> c == '\n').count();
        }
        if (detail != null && detail.contains("(TAB)")) {
            detail = "a tab where YAML allows only spaces; indent with spaces";
        }
        return new SemanticProjectException(at(where, format == Format.YAML ? line : 0) + ": not valid " + format + " ("
                + escape(firstLine(detail)) + "); fix the syntax there.", e);
    }

    static SemanticProjectException tooLarge(String where) {
        return new SemanticProjectException(where + ": the file is over 1 MiB; it should hold one object of a few hundred "
                + "bytes, so split or shorten it.");
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == String.class) {
            return "a single value, not a list or a mapping";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (type.isRecord()) {
            PropertyNamingStrategies.NamingBase snake = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
            return "a mapping with the keys " + Arrays.stream(type.getRecordComponents())
                    .map(c -> c.isAnnotationPresent(JsonProperty.class)
                            ? c.getAnnotation(JsonProperty.class).value()
                            : snake.translate(c.getName())).collect(Collectors.joining(", "));
        }
        return "of type " + type.getSimpleName();
    }

    private static SemanticProjectException fail(JsonMappingException e, String where, Format format,
                                                  Map<String, Integer> lines, String what) {
        String path = path(e.getPath());
        int line = 0;
        if (format == Format.YAML) {
            Integer known = lines.get(path);
            line = known != null ? known : e.getLocation() == null ? 0 : e.getLocation().getLineNr();
        }
        return new SemanticProjectException(message(where, line, path, what), e);
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    /**
     * Walks the tokens once before binding: records the line of each key path, and refuses what binding
     * would silently accept (a key given twice, anchors, aliases, tags, a second document, an empty file).
     */
    private static void scan(JsonParser p, String where, Format format, Map<String, Integer> lines)
            throws IOException, SemanticProjectException {
        record Frame(String path, boolean array, int[] next) {
        }
        Deque<Frame> open = new ArrayDeque<>();
        String field = null;
        boolean seenRoot = false;
        for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
            int line = p.currentTokenLocation().getLineNr();
            Frame parent = open.peek();
            if (t == JsonToken.FIELD_NAME) {
                field = join(parent.path(), p.currentName());
                Integer earlier = lines.putIfAbsent(field, line);
                if (earlier != null) {
                    throw new SemanticProjectException(message(where, format == Format.YAML ? line : 0, field,
                            "is given twice (first on line " + earlier + "); keep one of them"));
                }
                continue;
            }
            if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                open.pop();
                continue;
            }
            String path;
            if (parent == null) {
                if (seenRoot) {
                    throw new SemanticProjectException(at(where, format == Format.YAML ? line : 0)
                            + ": the file holds a second document; a file holds one object, move it to a file of its own.");
                }
                seenRoot = true;
                path = "";
            } else {
                path = parent.array() ? parent.path() + "[" + parent.next()[0]++ + "]" : field;
            }
            lines.putIfAbsent(path, line);
            if (p instanceof YAMLParser yaml) {
                refuseYamlExtras(yaml, where, line, path);
            }
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                if (open.size() == MAX_OBJECT_DEPTH) {
                    throw new SemanticProjectException(message(where, format == Format.YAML ? line : 0, path,
                            "nests deeper than " + MAX_OBJECT_DEPTH + " levels, where an object needs 4; flatten it"));
                }
                open.push(new Frame(path, t == JsonToken.START_ARRAY, new int[1]));
            }
        }
        if (!seenRoot) {
            throw new SemanticProjectException(where + ": the file is empty; it needs 'version: 1' and the object's keys.");
        }
    }

    // Jackson reads an alias as the anchor's name and ignores tags, so both would bind as something else than written.
    private static void refuseYamlExtras(YAMLParser p, String where, int line, String path)
            throws IOException, SemanticProjectException {
        if (p.isCurrentAlias()) {
            throw new SemanticProjectException(message(where, line, path, "is an alias (*" + printable(p.getText())
                    + "); anchors and aliases are not supported, write the value out"));
        }
        if (p.getObjectId() != null) {
            throw new SemanticProjectException(message(where, line, path, "has an anchor (&" + printable(p.getObjectId())
                    + "); anchors and aliases are not supported, remove it"));
        }
        if (p.getTypeId() != null) {
            throw new SemanticProjectException(message(where, line, path, "has the tag " + printable(p.getTypeId())
                    + "; tags are not supported, write the plain value"));
        }
    }

    private static String join(String parent, String field) {
        return parent.isEmpty() ? field : parent + "." + field;
    }

    static String message(String where, int line, String path, String what) {
        return at(where, line) + ": " + (path.isEmpty() ? "the file" : "'" + printable(path) + "'") + " " + what + ".";
    }

    private static String at(String where, int line) {
        return line > 0 ? where + ":" + line : where;
    }

    /** At most 64 characters, control characters escaped, so that a message stays one line. */
    static String printable(String s) {
        return escape(s.length() > 64 ? s.substring(0, 64) + "…" : s);
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> {
            if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
