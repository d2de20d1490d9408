package dev.schemabrain.pii;

import dev.schemabrain.error.PiiPolicyException;
import dev.schemabrain.error.UnsafeFileException;
import dev.schemabrain.files.PrivateFiles;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator's PII policy, {@code schemabrain/pii_policy.yaml}:
 * <pre>
 * block: [credential, payment_card, government_id, health]   # optional; default: the catastrophic floor
 * force: false                                              # true allows a block list below the floor
 * columns:
 *   public.customer.email: {categories: [contact]}
 *   public.track.composer: {categories: []}                 # not PII: hides the classifier's tag
 *   public.patient.notes: {categories: [health], sensitivity: pii}
 *   public.employee.last_name: {categories: [contact], allow: [group_by]}   # "revenue by employee last name"
 *   public.ticket.body: {categories: [], allow: [samples]}                  # free text that may be sampled
 * subjects: {customer: person, account: organisation}      # data subjects ({@link SubjectPolicy})
 * subject_of: {payment: customer}
 * person_keys: {timesheet.employee_ref: employee}
 * </pre>
 * {@code allow} lifts one disclosure rule for that column only ({@link Allowance}: group_by, filter_eq,
 * filter_range, min_max, time_dimension; for an untagged column samples and value_index, see {@link ChannelPolicy});
 * it never lifts the block list.
 * Overrides live apart from the classifier's tags, so they survive every re-index.
 */
public record PiiPolicy(Optional<BlockList> block, List<ColumnOverride> columns, SubjectPolicy subjects) {

    public static final Path DEFAULT_FILE = Path.of("schemabrain", "pii_policy.yaml");
    public static final PiiPolicy EMPTY = new PiiPolicy(Optional.empty(), List.of());

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
    private static final Set<String> TOP_KEYS = Set.of("block", "force", "columns", "subjects", "subject_of", "person_keys");
    private static final Set<String> COLUMN_KEYS = Set.of("categories", "sensitivity", "allow");

    /**
     * @param column {@code schema.table.column} as written; resolved against the catalog when applied
     * @param allow  the uses the operator permits on this column beyond the default rules
     */
    public record ColumnOverride(String column, PiiTag tag, Set<Allowance> allow) {

        public ColumnOverride {
            allow = allow.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(allow));
        }

        public ColumnOverride(String column, PiiTag tag) {
            this(column, tag, Set.of());
        }
    }

    public PiiPolicy {
        columns = columns.stream().sorted(Comparator.comparing(ColumnOverride::column)).toList();
        subjects = subjects == null ? SubjectPolicy.NONE : subjects;
    }

    public PiiPolicy(Optional<BlockList> block, List<ColumnOverride> columns) {
        this(block, columns, SubjectPolicy.NONE);
    }

    /** The policy with {@code override} replacing any override of the same column. */
    public PiiPolicy with(ColumnOverride override) {
        List<ColumnOverride> next = new ArrayList<>(columns.stream().filter(c -> !c.column().equals(override.column())).toList());
        next.add(override);
        return new PiiPolicy(block, next, subjects);
    }

    /** Reads {@code file}; a missing file is the empty policy. */
    public static PiiPolicy read(Path file) throws PiiPolicyException {
        String text;
        try {
            // A policy someone else could write could unblock categories or untag columns.
            PrivateFiles.check(file);
        } catch (UnsafeFileException e) {
            throw new PiiPolicyException(e.getMessage());
        }
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return EMPTY;
        } catch (IOException e) {
            throw new PiiPolicyException("Cannot read the PII policy " + file + " (" + e.getMessage() + "); check the path and its permissions.");
        }
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            throw new PiiPolicyException("The PII policy " + file + " is invalid: " + e.getMessage() + "; fix the file and run the command again.");
        }
    }

    /** @throws IllegalArgumentException saying what is wrong, without a final period */
    static PiiPolicy parse(String yaml) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("it is not YAML (line " + e.getLocation().getLineNr() + ": "
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return EMPTY;
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("the top level must be a mapping with block, force, columns, subjects, subject_of and person_keys");
        }
        unknownKeys(root, TOP_KEYS, "the top level");
        boolean force = root.path("force").asBoolean(false);
        Optional<BlockList> block = Optional.empty();
        if (root.has("block")) {
            block = Optional.of(BlockList.of(categories(root.get("block"), "block"), force));
        }
        List<ColumnOverride> columns = new ArrayList<>();
        JsonNode cols = root.path("columns");
        if (!cols.isMissingNode() && !cols.isNull()) {
            if (!cols.isObject()) {
                throw new IllegalArgumentException("columns must map schema.table.column to {categories, sensitivity}");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = cols.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                columns.add(override(e.getKey(), e.getValue()));
            }
        }
        return new PiiPolicy(block, columns, SubjectPolicy.parse(root));
    }

    private static ColumnOverride override(String column, JsonNode node) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("column " + column + " needs a mapping such as {categories: [contact]}");
        }
        unknownKeys(node, COLUMN_KEYS, "column " + column);
        if (!node.has("categories")) {
            throw new IllegalArgumentException("column " + column + " needs categories (an empty list marks it as not PII)");
        }
        Set<PiiCategory> categories = categories(node.get("categories"), "column " + column);
        Sensitivity sensitivity = Sensitivity.of(categories);
        if (node.hasNonNull("sensitivity")) {
            sensitivity = Sensitivity.fromWireName(node.get("sensitivity").asText());
        }
        Set<Allowance> allow = allowances(node.path("allow"), column);
        List<String> floor = categories.stream().filter(PiiCategory::catastrophic).sorted().map(PiiCategory::wireName).toList();
        if (!allow.isEmpty() && !floor.isEmpty()) {
            throw new IllegalArgumentException("column " + column + " is tagged " + String.join(", ", floor)
                    + ", which is always blocked, so allow cannot apply to it; remove its allow list");
        }
        return new ColumnOverride(column, new PiiTag(sensitivity, categories, List.of("operator")), allow);
    }

    private static Set<Allowance> allowances(JsonNode node, String column) {
        if (node.isMissingNode() || node.isNull()) {
            return Set.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("column " + column + " allow must be a list such as [group_by, filter_eq]");
        }
        EnumSet<Allowance> out = EnumSet.noneOf(Allowance.class);
        for (JsonNode n : node) {
            if (!n.isTextual()) {
                throw new IllegalArgumentException("column " + column + " allow must list names such as group_by, not " + n);
            }
            try {
                out.add(Allowance.fromWireName(n.asText()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column " + column + " has an " + e.getMessage());
            }
        }
        return out;
    }

    private static Set<PiiCategory> categories(JsonNode node, String where) {
        if (!node.isArray()) {
            throw new IllegalArgumentException(where + " must be a list of categories such as [contact, health]");
        }
        EnumSet<PiiCategory> out = EnumSet.noneOf(PiiCategory.class);
        node.forEach(n -> out.add(PiiCategory.fromWireName(n.asText())));
        return out;
    }

    private static void unknownKeys(JsonNode node, Set<String> allowed, String where) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!allowed.contains(key)) {
                throw new IllegalArgumentException(where + " has an unknown key '" + key + "'; the keys are "
                        + String.join(", ", allowed.stream().sorted().toList()));
            }
        }
    }

    /** The data-subject keys of a stored policy (JSON is YAML). */
    public static SubjectPolicy parseSubjects(String json) {
        try {
            JsonNode root = YAML.readTree(json);
            return root == null || !root.isObject() ? SubjectPolicy.NONE : SubjectPolicy.parse(root);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("it is not JSON");
        }
    }

    /** {@code subjects} as the object of its three keys. */
    public static ObjectNode subjectsJson(SubjectPolicy subjects) {
        ObjectNode root = YAML.createObjectNode();
        subjects.write(root);
        return root;
    }

    /** The policy as YAML, in the shape {@link #read} takes. */
    public String toYaml() {
        ObjectNode root = YAML.createObjectNode();
        block.ifPresent(b -> {
            ArrayNode list = root.putArray("block");
            b.names().forEach(list::add);
            if (!b.categories().containsAll(PiiCategory.CATASTROPHIC_FLOOR)) {
                root.put("force", true);
            }
        });
        ObjectNode cols = root.putObject("columns");
        for (ColumnOverride c : columns) {
            ObjectNode o = cols.putObject(c.column());
            ArrayNode list = o.putArray("categories");
            c.tag().categoryNames().forEach(list::add);
            if (c.tag().sensitivity() != Sensitivity.of(c.tag().categories())) {
                o.put("sensitivity", c.tag().sensitivity().wireName());
            }
            if (!c.allow().isEmpty()) {
                ArrayNode allowed = o.putArray("allow");
                c.allow().stream().sorted().map(Allowance::wireName).forEach(allowed::add);
            }
        }
        subjects.write(root);
        try {
            return "# SchemaBrain PII policy: operator overrides win over the classifier and survive re-indexing.\n"
                    + YAML.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a policy tree always serializes", e);
        }
    }

    /** Writes the policy to {@code file} as a private file (0600, its directory 0700), replaced atomically. */
    public void write(Path file) throws PiiPolicyException {
        try {
            PrivateFiles.write(file, toYaml().getBytes(StandardCharsets.UTF_8));
        } catch (UnsafeFileException e) {
            throw new PiiPolicyException(e.getMessage());
        }
    }
}
