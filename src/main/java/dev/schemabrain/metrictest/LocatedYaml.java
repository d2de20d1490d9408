package dev.schemabrain.metrictest;

import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.error.SemanticProjectException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A node of one YAML file with its key path ({@code tests[1].expect.value}), so every complaint names the file,
 * the line and the key, as the semantic project's files do. Plain YAML only: anchors, aliases and tags are
 * refused (an alias would silently stand for another value), and so is a key given twice.
 */
final class LocatedYaml {

    /** A test file is a few kilobytes; the parser's own stops sit well above that. */
    static final int MAX_CHARS = 1 << 20;
    private static final Resolver RESOLVER = new Resolver();

    private final Node node;
    private final String file;
    private final String path;

    private LocatedYaml(Node node, String file, String path) {
        this.node = node;
        this.file = file;
        this.path = path;
    }

    /** The one document of {@code text}; {@code file} names it in messages. */
    static LocatedYaml parse(String text, String file) throws SemanticProjectException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(0);
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(32);
        options.setCodePointLimit(MAX_CHARS);
        Node root;
        try {
            root = new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            String problem = e.getProblem() == null ? "" : e.getProblem();
            if (problem.contains("(TAB)")) {
                problem = "a tab where YAML allows only spaces; indent with spaces";
            }
            throw new SemanticProjectException(at(file, line) + ": not valid YAML (" + oneLine(problem) + "); fix the syntax there.", e);
        } catch (YAMLException e) {
            throw new SemanticProjectException(file + ": not valid YAML (" + oneLine(String.valueOf(e.getMessage()))
                    + "); fix the syntax there.", e);
        }
        if (root == null) {
            throw new SemanticProjectException(file + ": the file is empty; it needs 'version: 1', 'metric' and 'tests'.");
        }
        LocatedYaml located = new LocatedYaml(root, file, "");
        located.refuseExtras();
        return located;
    }

    int line() {
        return node.getStartMark().getLine() + 1;
    }

    /** {@code FILE:LINE} of this node. */
    String where() {
        return at(file, line());
    }

    /** A sentence about this node: {@code FILE:LINE: 'path' what.} */
    SemanticProjectException fail(String what) {
        return new SemanticProjectException(where() + ": " + (path.isEmpty() ? "the file" : "'" + shown(path) + "'") + " " + what + ".");
    }

    /** A required key of this mapping that is not there, reported at the mapping's line. */
    SemanticProjectException missing(String key) {
        return new SemanticProjectException(where() + ": '" + shown(path.isEmpty() ? key : path + "." + key) + "' is required.");
    }

    /** The entries of a mapping whose keys are all among {@code keys}, in the file's order. */
    Map<String, LocatedYaml> mapping(Set<String> keys) throws SemanticProjectException {
        if (!(node instanceof MappingNode map)) {
            throw fail(keys == null ? "must be a mapping" : "must be a mapping with the keys " + String.join(", ", new TreeSet<>(keys)));
        }
        Map<String, LocatedYaml> out = new LinkedHashMap<>();
        Map<String, Integer> lines = new HashMap<>();
        for (NodeTuple entry : map.getValue()) {
            LocatedYaml key = new LocatedYaml(entry.getKeyNode(), file, path);
            if (!(entry.getKeyNode() instanceof ScalarNode scalar)) {
                throw key.fail("has a key that is not a plain name; write key: value");
            }
            String name = scalar.getValue();
            LocatedYaml value = new LocatedYaml(entry.getValueNode(), file, path.isEmpty() ? name : path + "." + name);
            LocatedYaml named = new LocatedYaml(entry.getKeyNode(), file, value.path);
            Integer first = lines.putIfAbsent(name, named.line());
            if (first != null) {
                throw named.fail("is given twice (first on line " + first + "); keep one of them");
            }
            if (keys != null && !keys.contains(name)) {
                throw named.fail("is not a known key; the keys are " + String.join(", ", new TreeSet<>(keys)));
            }
            out.put(name, value);
        }
        return out;
    }

    List<LocatedYaml> list() throws SemanticProjectException {
        if (!(node instanceof SequenceNode seq)) {
            throw fail("must be a list");
        }
        List<LocatedYaml> out = new ArrayList<>();
        for (int i = 0; i < seq.getValue().size(); i++) {
            out.add(new LocatedYaml(seq.getValue().get(i), file, path + "[" + i + "]"));
        }
        return out;
    }

    /** A scalar's text: a name or SQL may look like a number to YAML and is still text here. */
    String text() throws SemanticProjectException {
        if (!(node instanceof ScalarNode scalar) || scalar.getTag().equals(Tag.NULL)) {
            throw fail("must be a single value, not a list, a mapping or nothing");
        }
        return scalar.getValue();
    }

    boolean bool() throws SemanticProjectException {
        if (!(node instanceof ScalarNode scalar) || !scalar.getTag().equals(Tag.BOOL)) {
            throw fail("must be true or false");
        }
        // YAML 1.1 also reads yes/no and on/off as booleans.
        return Set.of("true", "yes", "on").contains(scalar.getValue().toLowerCase(Locale.ROOT));
    }

    /** A number exactly as written (12345.67 stays 12345.67, never the nearest double). */
    BigDecimal number() throws SemanticProjectException {
        if (node instanceof ScalarNode scalar && (scalar.getTag().equals(Tag.INT) || scalar.getTag().equals(Tag.FLOAT))) {
            try {
                return new BigDecimal(scalar.getValue().replace("_", ""));
            } catch (NumberFormatException notDecimal) {
                // 0x1F, 1:30 and .inf are YAML numbers but not amounts.
            }
        }
        throw fail("must be a number, such as 12345.67");
    }

    /**
     * The node as the values of a JSON call: mappings, lists, String, Long, Double, Boolean or null, so a
     * request here is checked exactly as get_metric checks an agent's. A date stays the text written.
     */
    Object plain() throws SemanticProjectException {
        if (node instanceof MappingNode) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, LocatedYaml> e : mapping(null).entrySet()) {
                out.put(e.getKey(), e.getValue().plain());
            }
            return out;
        }
        if (node instanceof SequenceNode) {
            List<Object> out = new ArrayList<>();
            for (LocatedYaml item : list()) {
                out.add(item.plain());
            }
            return out;
        }
        ScalarNode scalar = (ScalarNode) node;
        Tag tag = scalar.getTag();
        if (tag.equals(Tag.NULL)) {
            return null;
        }
        if (tag.equals(Tag.BOOL)) {
            return bool();
        }
        if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
            BigDecimal n = number();
            return tag.equals(Tag.INT) && n.scale() <= 0 && n.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
                    ? (Object) n.longValueExact() : (Object) n.doubleValue();
        }
        return scalar.getValue();
    }

    /** Anchors and explicit tags anywhere in the document; an alias needs an anchor, so it is refused with it. */
    private void refuseExtras() throws SemanticProjectException {
        if (node.getAnchor() != null) {
            throw fail("has an anchor (&" + shown(node.getAnchor()) + "); anchors and aliases are not supported, write the value out");
        }
        Tag implicit = switch (node.getNodeId()) {
            case mapping -> Tag.MAP;
            case sequence -> Tag.SEQ;
            default -> ((ScalarNode) node).isPlain() ? RESOLVER.resolve(NodeId.scalar, ((ScalarNode) node).getValue(), true) : Tag.STR;
        };
        if (!node.getTag().equals(implicit)) {
            throw fail("has the tag " + shown(node.getTag().getValue()) + "; tags are not supported, write the plain value");
        }
        if (node instanceof MappingNode map) {
            for (NodeTuple entry : map.getValue()) {
                new LocatedYaml(entry.getKeyNode(), file, path).refuseExtras();
                String key = entry.getKeyNode() instanceof ScalarNode k ? k.getValue() : "?";
                new LocatedYaml(entry.getValueNode(), file, path.isEmpty() ? key : path + "." + key).refuseExtras();
            }
        } else if (node instanceof SequenceNode seq) {
            for (int i = 0; i < seq.getValue().size(); i++) {
                new LocatedYaml(seq.getValue().get(i), file, path + "[" + i + "]").refuseExtras();
            }
        }
    }

    private static String at(String file, int line) {
        return line > 0 ? file + ":" + line : file;
    }

    /** At most 64 characters, control characters escaped, so a message stays one line. */
    static String shown(String s) {
        return NameSyntax.excerpt(s).codePoints().mapToObj(c -> Character.isISOControl(c) || c == 0x2028 || c == 0x2029
                ? String.format("\\u%04x", c) : Character.toString(c)).collect(Collectors.joining());
    }

    private static String oneLine(String s) {
        return shown(s.lines().findFirst().orElse(""));
    }
}
