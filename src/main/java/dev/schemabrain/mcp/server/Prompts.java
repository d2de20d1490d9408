package dev.schemabrain.mcp.server;

import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The charter's canonical workflows as MCP prompts, so a client offers them as commands: each is one user
 * message naming the tools to call in order, with the caller's arguments in it. The same prompts in both
 * eras and on both transports; a prompt is offered only when every tool it names is served.
 */
public final class Prompts {

    /** One workflow: its arguments, the tools it needs and the message it becomes. */
    private record Workflow(String name, String title, String description, List<McpSchema.PromptArgument> arguments,
                            List<String> tools, Function<Map<String, String>, String> text) {
    }

    private static final List<Workflow> WORKFLOWS = List.of(
            new Workflow("whats_in_this_database", "What's in this database?",
                    "Survey the indexed database: its schemas, then its most relevant tables.",
                    List.of(optional("focus", "What you care about most, e.g. sales (optional)")),
                    List.of("find_relevant_tables", "describe_table"),
                    a -> "What's in this database? Call find_relevant_tables with query \"" + a.getOrDefault("focus", "*")
                            + "\" and limit 50, then describe_table on the main tables, and summarize the schemas and the"
                            + " main tables with what each holds."),
            new Workflow("tell_me_about_a_domain", "Tell me about a domain",
                    "Find the tables of a business domain (revenue, customers, …) and describe the top ones.",
                    List.of(required("domain", "The business domain, e.g. revenue")),
                    List.of("find_relevant_tables", "describe_table"),
                    a -> "Tell me about " + a.get("domain") + " in this database. Call find_relevant_tables with query \""
                            + a.get("domain") + "\", then describe_table on the top 1-3 hits (response_format detailed"
                            + " where a column's meaning is unclear)."),
            new Workflow("how_do_these_tables_relate", "How do these tables relate?",
                    "The join paths between tables, with any bridge table between them.",
                    List.of(required("tables", "Two or more tables, schema.table, separated by commas")),
                    List.of("suggest_joins", "describe_table"),
                    a -> "How do these tables relate: " + a.get("tables") + "? Call suggest_joins with these tables, then"
                            + " describe_table on any bridge table the joins go through, and explain each join path."),
            new Workflow("aggregate_something", "I want to aggregate something",
                    "Find the governed metric for a measure and compute it, grouped as asked.",
                    List.of(required("measure", "What to aggregate, e.g. revenue per month"),
                            optional("by", "A dimension to group by, e.g. region (optional)")),
                    List.of("find_relevant_metrics", "describe_entity", "get_metric"),
                    a -> "I want to aggregate " + a.get("measure") + (a.containsKey("by") ? " by " + a.get("by") : "")
                            + ". Call find_relevant_metrics with that query, describe_entity for the chosen metric's entity,"
                            + " then get_metric with the metric's name" + (a.containsKey("by") ? " and the dimension" : "")
                            + "; report the numbers with the metric's definition."),
            new Workflow("how_others_queried", "Show me how others have queried this",
                    "The example queries mined for a table: how people actually use it.",
                    List.of(required("table", "The table, schema.table")),
                    List.of("get_example_queries"),
                    a -> "Show me how others have queried " + a.get("table") + ". Call get_example_queries with"
                            + " qualified_name \"" + a.get("table") + "\" and explain the common patterns."));

    private final List<Workflow> served;

    private Prompts(List<Workflow> served) {
        this.served = served;
    }

    /** The workflows whose tools are all among {@code tools}. */
    public static Prompts forTools(Collection<String> tools) {
        return new Prompts(WORKFLOWS.stream().filter(w -> tools.containsAll(w.tools())).toList());
    }

    public boolean isEmpty() {
        return served.isEmpty();
    }

    /** Whether the served prompt {@code prompt} has an argument {@code argument}. */
    public boolean takes(String prompt, String argument) {
        return served.stream().filter(w -> w.name().equals(prompt))
                .anyMatch(w -> w.arguments().stream().anyMatch(a -> a.name().equals(argument)));
    }

    /** Each served prompt's reference and argument names, for the completions the SDK routes by reference. */
    public Map<String, List<String>> argumentNames() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        served.forEach(w -> out.put(w.name(), w.arguments().stream().map(McpSchema.PromptArgument::name).toList()));
        return out;
    }

    /** What prompts/list returns. */
    public List<McpSchema.Prompt> definitions() {
        List<McpSchema.Prompt> out = new ArrayList<>();
        for (Workflow w : served) {
            out.add(new McpSchema.Prompt(w.name(), w.title(), w.description(), w.arguments()));
        }
        return out;
    }

    /** Why a prompts/get cannot be answered: one sentence. */
    public static final class Refused extends IllegalArgumentException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * The prompt {@code name} filled with {@code arguments} (blank ones count as absent).
     *
     * @throws Refused naming the prompts there are, or the required argument missing
     */
    public McpSchema.GetPromptResult get(String name, Map<String, ?> arguments) {
        Optional<Workflow> found = served.stream().filter(w -> w.name().equals(name)).findFirst();
        if (found.isEmpty()) {
            throw new Refused("Invalid params: no prompt named '" + ReadableText.clean(String.valueOf(name))
                    + "'; prompts/list names " + String.join(", ", served.stream().map(Workflow::name).toList()) + ".");
        }
        Workflow w = found.get();
        Map<String, String> given = new LinkedHashMap<>();
        if (arguments != null) {
            arguments.forEach((k, v) -> {
                if (v != null && !String.valueOf(v).isBlank()) {
                    given.put(k, ReadableText.clean(String.valueOf(v).strip()));
                }
            });
        }
        for (McpSchema.PromptArgument argument : w.arguments()) {
            if (Boolean.TRUE.equals(argument.required()) && !given.containsKey(argument.name())) {
                throw new Refused("Invalid params: prompt " + w.name() + " needs the argument '" + argument.name()
                        + "' (" + argument.description() + ").");
            }
        }
        McpSchema.TextContent text = new McpSchema.TextContent(w.text().apply(given));
        return new McpSchema.GetPromptResult(w.description(), List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, text)));
    }

    /** As {@link #get}, for the SDK (2025 era): a refusal is the SDK's invalid-params error with the same sentence. */
    public reactor.core.publisher.Mono<McpSchema.GetPromptResult> answer(McpSchema.GetPromptRequest request) {
        try {
            return reactor.core.publisher.Mono.just(get(request.name(), request.arguments()));
        } catch (Refused refused) {
            return reactor.core.publisher.Mono.error(io.modelcontextprotocol.spec.McpError.builder(JsonRpcFrames.INVALID_PARAMS)
                    .message(refused.getMessage()).build());
        }
    }

    private static McpSchema.PromptArgument required(String name, String description) {
        return new McpSchema.PromptArgument(name, description, true);
    }

    private static McpSchema.PromptArgument optional(String name, String description) {
        return new McpSchema.PromptArgument(name, description, false);
    }
}
