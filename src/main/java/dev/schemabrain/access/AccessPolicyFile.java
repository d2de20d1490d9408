package dev.schemabrain.access;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.files.PrivateFiles;
import dev.schemabrain.pii.PiiCategory;
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

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the access policy file ({@code serve --access-policy}):
 * <pre>
 * version: 1
 * roles:
 *   analyst:
 *     allow: [public.invoice, sales.*]
 *     metrics: [revenue]              # optional: only these metrics
 *     row_filters:
 *       - {entity: customer, column: customer.support_rep_id, op: eq, claim: employee_id}
 *     pii_clearance: [contact]
 *     min_group_size: 10
 *     metric_rate: 60/min
 *     reviewer: true                  # optional: may sign in to the console and review
 * default_role: none
 * </pre>
 * Every refusal is one sentence naming the file and the line: an unknown key, a key given twice (two roles
 * of one name), a pattern that is not {@code schema.table} or {@code schema.*}, an unknown op or PII
 * category, a default_role naming no role. The file is the operator's own and readable by nobody else
 * (0600), like the other files that decide who sees what.
 */
public final class AccessPolicyFile {

    /** The largest policy file read: a policy is hand-written, a huge one is a mistake or an attack. */
    static final int MAX_BYTES = 1024 * 1024;
    /** default_role's value for "a caller without a role gets nothing". */
    public static final String NONE = "none";

    private static final Set<String> TOP = Set.of("version", "roles", "default_role");
    private static final Set<String> ROLE = Set.of("allow", "metrics", "row_filters", "pii_clearance", "min_group_size",
            "metric_rate", "reviewer");
    private static final Set<String> FILTER = Set.of("entity", "column", "op", "claim");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.$-]*");
    private static final Pattern PART = Pattern.compile("[^.\\s*\"'`]+");
    /** As the server's --metric-rate, without {@code off}: a role's rate is a limit, never its absence. */
    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*/\\s*(s|sec|second|m|min|minute|h|hour)");

    private final String where;

    private AccessPolicyFile(String where) {
        this.where = where;
    }

    /** Reads and checks {@code file}: private (0600, the operator's), at most 1 MiB, a valid policy. */
    public static AccessPolicy read(Path file) throws SchemaBrainException {
        checkPrivate(file);
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new UserError(SchemaBrainException.Kind.INPUT, "The access policy " + file + " is larger than 1 MiB;"
                        + " a policy lists roles and tables, check that this is the right file.");
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot read the access policy " + file
                    + "; check --access-policy and the file's permissions.", e);
        }
        return parse(new String(bytes, StandardCharsets.UTF_8), file.toString());
    }

    /** Refuses a policy file that is missing, a link, someone else's, or readable or writable by others. */
    public static void checkPrivate(Path file) throws SchemaBrainException {
        if (!Files.exists(file)) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "The access policy " + file + " does not exist;"
                    + " check --access-policy.");
        }
        PrivateFiles.checkSecret(file);
    }

    /** Parses policy text; {@code where} names it in messages (a path). */
    public static AccessPolicy parse(String text, String where) throws UserError {
        return new AccessPolicyFile(where).policy(text);
    }

    private AccessPolicy policy(String text) throws UserError {
        Node root = compose(text);
        if (root == null) {
            throw fail(1, "is empty; it needs at least 'version: 1' and 'roles:'");
        }
        MappingNode top = mapping(root, "the file");
        Map<String, Node> keys = keys(top, TOP);
        Node version = keys.get("version");
        if (version == null) {
            throw fail(line(top), "has no version; add 'version: 1' at the top");
        }
        if (!"1".equals(scalar(version, "version"))) {
            throw fail(line(version), "has version " + scalar(version, "version") + ", but this SchemaBrain reads version 1");
        }
        Node rolesNode = keys.get("roles");
        if (rolesNode == null) {
            throw fail(line(top), "has no roles; add 'roles:' with at least one role");
        }
        Map<String, Role> roles = new LinkedHashMap<>();
        Map<String, Node> byName = keys(mapping(rolesNode, "roles"), null);
        for (Map.Entry<String, Node> e : byName.entrySet()) {
            String name = e.getKey();
            if (!NAME.matcher(name).matches() || name.length() > 64) {
                throw fail(line(e.getValue()), "names a role '" + printable(name) + "'; a role name is 1 to 64 letters, digits, '_', '.', '-'");
            }
            if (name.equals(NONE)) {
                throw fail(line(e.getValue()), "names a role 'none', which default_role uses for no role; choose another name");
            }
            roles.put(name, role(name, e.getValue()));
        }
        Optional<String> defaultRole = Optional.empty();
        Node dflt = keys.get("default_role");
        if (dflt != null) {
            String name = scalar(dflt, "default_role");
            if (!name.equals(NONE)) {
                if (!roles.containsKey(name)) {
                    throw fail(line(dflt), "sets default_role to " + printable(name) + ", which is not a role of the file;"
                            + " name one of " + (roles.isEmpty() ? "its roles" : String.join(", ", roles.keySet())) + ", or none");
                }
                defaultRole = Optional.of(name);
            }
        }
        return new AccessPolicy(roles, defaultRole);
    }

    private Role role(String name, Node node) throws UserError {
        String at = "roles." + name;
        Map<String, Node> keys = keys(mapping(node, at), ROLE);
        List<TablePattern> allow = new ArrayList<>();
        Node allowNode = keys.get("allow");
        if (allowNode != null) {
            for (Node p : sequence(allowNode, at + ".allow")) {
                allow.add(pattern(scalar(p, at + ".allow"), p));
            }
        }
        Optional<Set<String>> metrics = Optional.empty();
        Node metricsNode = keys.get("metrics");
        if (metricsNode != null) {
            Set<String> names = new LinkedHashSet<>();
            for (Node m : sequence(metricsNode, at + ".metrics")) {
                String metric = scalar(m, at + ".metrics");
                if (metric.isBlank()) {
                    throw fail(line(m), "lists an empty metric name in " + at + ".metrics");
                }
                names.add(metric);
            }
            metrics = Optional.of(names);
        }
        List<RowFilter> filters = new ArrayList<>();
        Node filtersNode = keys.get("row_filters");
        if (filtersNode != null) {
            int i = 0;
            for (Node f : sequence(filtersNode, at + ".row_filters")) {
                filters.add(rowFilter(f, at + ".row_filters[" + i++ + "]"));
            }
        }
        Set<String> clearance = new LinkedHashSet<>();
        Node piiNode = keys.get("pii_clearance");
        if (piiNode != null) {
            for (Node c : sequence(piiNode, at + ".pii_clearance")) {
                String category = scalar(c, at + ".pii_clearance");
                try {
                    clearance.add(PiiCategory.fromWireName(category).wireName());
                } catch (IllegalArgumentException unknown) {
                    throw fail(line(c), "lists '" + printable(category) + "' in " + at + ".pii_clearance, which is not a PII"
                            + " category; the categories are " + categories());
                }
            }
        }
        OptionalInt minGroup = OptionalInt.empty();
        Node groupNode = keys.get("min_group_size");
        if (groupNode != null) {
            String v = scalar(groupNode, at + ".min_group_size");
            int k;
            try {
                k = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                k = 0;
            }
            if (k < 1) {
                throw fail(line(groupNode), "sets " + at + ".min_group_size to " + printable(v) + "; it is a whole number of"
                        + " at least 1 (the fewest rows a group may stand for)");
            }
            minGroup = OptionalInt.of(k);
        }
        Optional<String> rate = Optional.empty();
        Node rateNode = keys.get("metric_rate");
        if (rateNode != null) {
            String v = scalar(rateNode, at + ".metric_rate").strip();
            Matcher m = RATE.matcher(v.toLowerCase(Locale.ROOT));
            if (!m.matches() || !(Double.parseDouble(m.group(1)) > 0)) {
                throw fail(line(rateNode), "sets " + at + ".metric_rate to " + printable(v) + "; a rate is written N/s, N/min"
                        + " or N/h with N above zero, such as 60/min");
            }
            rate = Optional.of(v);
        }
        boolean reviewer = false;
        Node reviewerNode = keys.get("reviewer");
        if (reviewerNode != null) {
            String v = scalar(reviewerNode, at + ".reviewer");
            if (!v.equals("true") && !v.equals("false")) {
                throw fail(line(reviewerNode), "sets " + at + ".reviewer to " + printable(v) + "; it is true (the role may"
                        + " review in the console) or false");
            }
            reviewer = v.equals("true");
        }
        return new Role(name, allow, metrics, filters, clearance, minGroup, rate, reviewer);
    }

    private RowFilter rowFilter(Node node, String at) throws UserError {
        Map<String, Node> keys = keys(mapping(node, at), FILTER);
        for (String required : List.of("entity", "column", "op", "claim")) {
            if (!keys.containsKey(required)) {
                throw fail(line(node), "has no " + required + " in " + at + "; a row filter gives entity, column, op and claim");
            }
        }
        String entity = scalar(keys.get("entity"), at + ".entity");
        String column = scalar(keys.get("column"), at + ".column");
        String opText = scalar(keys.get("op"), at + ".op");
        String claim = scalar(keys.get("claim"), at + ".claim");
        if (entity.isBlank()) {
            throw fail(line(keys.get("entity")), "has an empty " + at + ".entity; name the entity the filter applies to");
        }
        String[] parts = column.split("\\.", -1);
        if (parts.length != 2 || !PART.matcher(parts[0]).matches() || !PART.matcher(parts[1]).matches()) {
            throw fail(line(keys.get("column")), "sets " + at + ".column to '" + printable(column) + "'; write it table.column,"
                    + " such as customer.support_rep_id");
        }
        RowFilter.Op op = switch (opText) {
            case "eq" -> RowFilter.Op.EQ;
            case "in" -> RowFilter.Op.IN;
            default -> throw fail(line(keys.get("op")), "sets " + at + ".op to '" + printable(opText) + "'; the ops are eq"
                    + " (the column equals the claim) and in (the column is one of the claim's comma-separated values)");
        };
        if (claim.isBlank()) {
            throw fail(line(keys.get("claim")), "has an empty " + at + ".claim; name the credential claim whose value filters rows");
        }
        return new RowFilter(entity, column, op, claim);
    }

    private TablePattern pattern(String text, Node node) throws UserError {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 2 || !PART.matcher(parts[0]).matches()
                || !(parts[1].equals(TablePattern.ANY) || PART.matcher(parts[1]).matches())) {
            throw fail(line(node), "allows '" + printable(text) + "', which is not schema.table or schema.* (a whole schema);"
                    + " write it like public.invoice or sales.*");
        }
        return new TablePattern(parts[0], parts[1]);
    }

    private Node compose(String text) throws UserError {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(10);   // refused below, with the line
        options.setAllowDuplicateKeys(true);   // checked here, with both lines
        options.setNestingDepthLimit(20);
        options.setCodePointLimit(MAX_BYTES);
        try {
            return new Yaml(options).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 0 : e.getProblemMark().getLine() + 1;
            throw fail(line, "is not valid YAML (" + printable(String.valueOf(e.getProblem())) + ")");
        } catch (YAMLException e) {
            throw fail(0, "is not valid YAML (" + printable(firstLine(e.getMessage())) + ")");
        }
    }

    /** The node as a mapping; refuses anything else, . */
    private MappingNode mapping(Node node, String at) throws UserError {
        refuseExtras(node, at);
        if (node instanceof MappingNode m) {
            return m;
        }
        throw fail(line(node), "has " + at + " as " + kind(node) + ", where a mapping of keys is expected");
    }

    /** The mapping's keys in order, each once; an unknown key or a key given twice is refused with its line. */
    private Map<String, Node> keys(MappingNode mapping, Set<String> known) throws UserError {
        Map<String, Node> out = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (NodeTuple t : mapping.getValue()) {
            String key = scalar(t.getKeyNode(), "a key");
            int line = line(t.getKeyNode());
            if (known != null && !known.contains(key)) {
                throw fail(line, "has an unknown key '" + printable(key) + "'; the keys here are "
                        + String.join(", ", known.stream().sorted().toList()));
            }
            Integer earlier = lines.putIfAbsent(key, line);
            if (earlier != null) {
                throw fail(line, "gives '" + printable(key) + "' twice (first on line " + earlier + "); keep one of them");
            }
            out.put(key, t.getValueNode());
        }
        return out;
    }

    private List<Node> sequence(Node node, String at) throws UserError {
        refuseExtras(node, at);
        if (node instanceof SequenceNode s) {
            return s.getValue();
        }
        throw fail(line(node), "has " + at + " as " + kind(node) + ", where a list such as [a, b] is expected");
    }

    private String scalar(Node node, String at) throws UserError {
        refuseExtras(node, at);
        if (node instanceof ScalarNode s) {
            return s.getValue();
        }
        throw fail(line(node), "has " + at + " as " + kind(node) + ", where a single value is expected");
    }

    /** Anchors, aliases and local tags have no place in a hand-written policy. */
    private void refuseExtras(Node node, String at) throws UserError {
        if (node.getAnchor() != null) {
            throw fail(line(node), "uses an anchor or alias at " + at + "; write the values out");
        }
        if (node.getTag() != null && !node.getTag().startsWith(Tag.PREFIX)) {
            throw fail(line(node), "has the tag " + printable(node.getTag().getValue()) + " at " + at + "; remove it");
        }
    }

    private static String kind(Node node) {
        return switch (node.getNodeId()) {
            case mapping -> "a mapping";
            case sequence -> "a list";
            default -> "a single value";
        };
    }

    private static int line(Node node) {
        return node.getStartMark() == null ? 0 : node.getStartMark().getLine() + 1;
    }

    private UserError fail(int line, String what) {
        return new UserError(SchemaBrainException.Kind.INPUT, "The access policy " + where + (line > 0 ? " line " + line : "")
                + " " + what + ".");
    }

    private static String categories() {
        List<String> names = new ArrayList<>();
        for (PiiCategory c : PiiCategory.values()) {
            names.add(c.wireName());
        }
        return String.join(", ", names);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** A value from the file as shown in a message: printable, at most 80 characters. */
    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(80).forEach(c -> out.appendCodePoint(Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT ? '?' : c));
        return s.codePointCount(0, s.length()) > 80 ? out + "…" : out.toString();
    }
}
