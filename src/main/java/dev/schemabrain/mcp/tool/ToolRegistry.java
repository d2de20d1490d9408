package dev.schemabrain.mcp.tool;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Fuzzy;
import dev.schemabrain.mcp.args.ArgSchema;
import dev.schemabrain.mcp.args.ArgSpec;
import dev.schemabrain.mcp.args.Validation;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The tools a server offers, and the one place a call is dispatched: strict argument validation
 * first (an invalid_argument envelope pointing back at the same tool), then the tool, with any
 * exception turned into an internal_error envelope so a bug never reaches the agent as a crash. Each
 * call's row is its {@link CallRecorder}'s.
 */
public final class ToolRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ToolRegistry.class);
    /** Valid arguments longer than this (as JSON) are not repeated in a recovery. */
    private static final int MAX_ECHOED_ARGUMENT = 200;
    /** How a tool's name looks in a message: lower-case words joined by underscores. */
    private static final Pattern TOOL_NAME = Pattern.compile("\\b[a-z]+(?:_[a-z]+)+\\b");

    private final Map<String, Tool> tools;
    private final CallRecorder recorder;
    private final StandIns standIns;
    /** The callers' calls in flight through this registry (its own, read by nobody, unless {@link #counted}). */
    private final CallsInFlight inFlight;

    /** A tool an answer may point to, and the arguments to suggest with it (null: keep the answer's own if they fit). */
    public record Pointer(String tool, Map<String, Object> arguments) {
    }

    /** Which served tool stands in for one that is not served (given what is served); empty when none does. */
    @FunctionalInterface
    public interface StandIns {
        StandIns NONE = (absent, served) -> Optional.empty();

        Optional<Pointer> standIn(String absent, Predicate<String> served);
    }

    private ToolRegistry(Map<String, Tool> tools, CallAudit audit, StandIns standIns, CallsInFlight inFlight) {
        this.tools = tools;
        this.recorder = new CallRecorder(audit);
        this.standIns = standIns;
        this.inFlight = inFlight;
    }

    /** Every call is recorded in {@code audit} before its answer is returned. */
    public ToolRegistry audited(CallAudit audit) {
        return new ToolRegistry(tools, audit, standIns, inFlight);
    }

    /** This registry, its calls counted in {@code inFlight} while they run. */
    public ToolRegistry counted(CallsInFlight inFlight) {
        return new ToolRegistry(tools, recorder.audit(), standIns, inFlight);
    }

    /**
     * This registry, its answers' follow-up hints and recoveries pointing only at tools it serves: an absent tool is
     * replaced by its stand-in, or dropped (a hint list left empty names the tool that answered).
     */
    public ToolRegistry pointingWithin(StandIns standIns) {
        return new ToolRegistry(tools, recorder.audit(), standIns, inFlight);
    }

    /** Where this registry's calls, and the calls the edge refuses or turns away, are recorded. */
    public CallRecorder recorder() {
        return recorder;
    }

    public static ToolRegistry of(List<? extends Tool> tools) {
        Map<String, Tool> byName = new LinkedHashMap<>();
        for (Tool tool : tools) {
            if (byName.putIfAbsent(tool.spec().name(), tool) != null) {
                throw new IllegalArgumentException("two tools are named " + tool.spec().name());
            }
        }
        return new ToolRegistry(Collections.unmodifiableMap(byName), CallAudit.NONE, StandIns.NONE, new CallsInFlight());
    }

    public Collection<Tool> tools() {
        return tools.values();
    }

    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    public Optional<Tool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Validates {@code arguments} and runs the tool; never throws for a known tool. */
    public Envelope call(String name, Map<String, Object> arguments) {
        return call(name, arguments, null);
    }

    /**
     * Validates {@code arguments}, runs the tool and records the call; never throws for a known tool.
     *
     * @param caller the client's name and version, or null
     */
    public Envelope call(String name, Map<String, Object> arguments, String caller) {
        return call(name, arguments, caller, Access.UNRESTRICTED);
    }

    /** As {@link #call(String, Map, String)}, for a caller whose reach the access policy limits. */
    public Envelope call(String name, Map<String, Object> arguments, String caller, Access access) {
        Tool tool = tools.get(name);
        if (tool == null) {
            throw new IllegalArgumentException("no tool named " + name);
        }
        Map<String, Object> given = arguments == null ? Map.of() : arguments;
        ToolCall call = new ToolCall(name, caller, given, recorder.audit(), access);
        inFlight.enter();
        try {
            return recorder.completed(call, withinServed(name, answer(tool, given, call)));
        } finally {
            inFlight.exit();
        }
    }

    private Envelope withinServed(String answering, Envelope envelope) {
        Predicate<String> served = tools::containsKey;
        boolean hintsServed = envelope.followUpHints().stream().allMatch(served);
        Recovery recovery = envelope.error() == null ? null : envelope.error().recovery();
        boolean recoveryServed = recovery == null || recovery.suggestedTool() == null || served.test(recovery.suggestedTool());
        String message = envelope.error() == null ? null : messageWithin(envelope.error().message(), served);
        boolean messageServed = message == null || message.equals(envelope.error().message());
        if (hintsServed && recoveryServed && messageServed) {
            return envelope;
        }
        List<String> hints = new ArrayList<>();
        for (String hint : envelope.followUpHints()) {
            Optional<String> to = served.test(hint) ? Optional.of(hint) : standIns.standIn(hint, served).map(Pointer::tool);
            to.filter(t -> !hints.contains(t)).ifPresent(hints::add);
        }
        if (hints.isEmpty()) {
            hints.add(answering);
        }
        ToolError error = envelope.error();
        if (!recoveryServed || !messageServed) {
            error = new ToolError(error.kind(), message, recoveryServed ? recovery : pointedWithin(recovery, served),
                    error.piiCategories());
        }
        return new Envelope(envelope.status(), envelope.data(), error, envelope.confidence(), envelope.provenance(),
                hints, envelope.degradationReason());
    }

    /** {@code message} with each absent tool it names (a word with an underscore) replaced by its stand-in, if any. */
    private String messageWithin(String message, Predicate<String> served) {
        Matcher words = TOOL_NAME.matcher(message);
        StringBuilder out = new StringBuilder();
        while (words.find()) {
            String word = words.group();
            String to = served.test(word) ? word : standIns.standIn(word, served).map(Pointer::tool).orElse(word);
            words.appendReplacement(out, Matcher.quoteReplacement(to));
        }
        return words.appendTail(out).toString();
    }

    /** {@code recovery} with its absent tool replaced by a stand-in that takes the suggested arguments, or by none. */
    private Recovery pointedWithin(Recovery recovery, Predicate<String> served) {
        Optional<Pointer> standIn = standIns.standIn(recovery.suggestedTool(), served);
        String tool = null;
        Map<String, Object> arguments = Map.of();
        if (standIn.isPresent()) {
            ArgSchema schema = tools.get(standIn.get().tool()).spec().arguments();
            if (schema.validate(recovery.suggestedArgs()).isValid()) {
                tool = standIn.get().tool();
                arguments = recovery.suggestedArgs();
            } else if (standIn.get().arguments() != null && schema.validate(standIn.get().arguments()).isValid()) {
                tool = standIn.get().tool();
                arguments = standIn.get().arguments();
            }
        }
        return new Recovery(tool, arguments, recovery.fuzzyMatches(), recovery.suggestedRewrite(), recovery.wideningHint());
    }

    private Envelope answer(Tool tool, Map<String, Object> arguments, ToolCall call) {
        ToolSpec spec = tool.spec();
        if (call.access().denial().isPresent()) {
            // A caller the access policy gives no role reaches nothing: not even an argument check answers it.
            return Envelope.error(new ToolError(ErrorKind.ALLOWLIST_VIOLATION, "This caller may reach nothing: "
                    + call.access().denial().get() + ".", new Recovery(null, Map.of(), List.of(), null,
                    "Use a credential that carries a role of the access policy, or ask the operator to set a default_role."),
                    List.of()), List.of(spec.name()));
        }
        Validation validation = spec.arguments().validate(arguments);
        if (!validation.isValid()) {
            return invalidArgument(spec, validation, arguments);
        }
        try {
            return tool.call(validation.arguments(), call);
        } catch (RuntimeException | Error e) {
            LOG.error("tool {} failed", spec.name(), e);
            return Envelope.error(ToolError.of(ErrorKind.INTERNAL_ERROR,
                    "SchemaBrain hit an internal error in " + spec.name() + "; this is a bug, it has been logged on the server, "
                            + "and retrying the same call will not help.",
                    Recovery.call("list_indexed_schemas", Map.of())), List.of("list_indexed_schemas"));
        }
    }

    private static Envelope invalidArgument(ToolSpec spec, Validation validation, Map<String, Object> given) {
        ArgSchema schema = spec.arguments();
        List<String> fuzzy = new ArrayList<>();
        for (String unknown : validation.unknownArguments()) {
            for (String match : Fuzzy.best(unknown, schema.args().keySet(), 3)) {
                if (!fuzzy.contains(match) && fuzzy.size() < 3) {
                    fuzzy.add(match);
                }
            }
        }
        Map<String, Object> keep = new LinkedHashMap<>();
        validation.accepted().forEach((key, value) -> {
            if (String.valueOf(value).length() <= MAX_ECHOED_ARGUMENT) {
                keep.put(key, value);
            }
        });
        String message = "Invalid arguments for " + spec.name() + ": " + validation.message()
                + ". " + allowed(schema);
        boolean lost = given != null && spec.retry().kept().stream().anyMatch(k -> given.containsKey(k) && !keep.containsKey(k));
        Recovery recovery = lost ? Recovery.call(spec.retry().otherwise(), Map.of())
                : Recovery.call(spec.name(), keep);
        return Envelope.error(ToolError.of(ErrorKind.INVALID_ARGUMENT, message, recovery.withFuzzyMatches(fuzzy)),
                List.of(spec.name()));
    }

    /** "Allowed arguments: query (string, required), limit (integer, default 10)." */
    static String allowed(ArgSchema schema) {
        if (schema.args().isEmpty()) {
            return "This tool takes no arguments.";
        }
        return schema.args().values().stream().map(ToolRegistry::describe)
                .collect(Collectors.joining(", ", "Allowed arguments: ", "."));
    }

    private static String describe(ArgSpec arg) {
        List<String> facts = new ArrayList<>();
        facts.add(arg.enumValues().isEmpty() ? arg.type().name().toLowerCase(Locale.ROOT) + (arg.array() ? " array" : "")
                : String.join("|", arg.enumValues()));
        if (arg.required()) {
            facts.add("required");
        }
        if (arg.defaultValue() != null) {
            facts.add("default " + arg.defaultValue());
        }
        return arg.name() + " (" + String.join(", ", facts) + ")";
    }
}
