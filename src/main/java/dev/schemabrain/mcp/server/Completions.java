package dev.schemabrain.mcp.server;

import dev.schemabrain.access.Access;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Metric;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * completion/complete for the prompts' arguments that name catalog things (metrics, entities, tables,
 * columns), answered from the caller's view of the catalog ({@link ServedCatalog#scopedTo}), the same view
 * the tools answer from, so a completion never spells a name the caller's role hides. Prefix matches
 * (case-insensitive, on the whole name or its part after the schema) come first, then names containing the
 * text, then names holding its letters in order; at most {@link #MAX} values, as the protocol allows.
 */
public final class Completions {

    public static final int MAX = 100;

    /** Which names each prompt argument takes; an argument not here (free text) completes to nothing. */
    private static final Map<String, Function<ServedCatalog, List<String>>> NAMES = Map.of(
            "table", Completions::tables,
            "tables", Completions::tables,
            "measure", view -> view.semantic().metrics().stream().map(Metric::name).toList(),
            "domain", view -> view.semantic().entities().stream().map(Entity::name).toList(),
            "by", Completions::columns);
    /** Arguments holding a comma-separated list: the last item is the one being typed. */
    private static final Set<String> LISTS = Set.of("tables");

    private final CatalogProvider catalogs;
    private final Prompts prompts;

    public Completions(CatalogProvider catalogs, Prompts prompts) {
        this.catalogs = catalogs;
        this.prompts = prompts;
    }

    /** No catalog to complete from (a server without a store): every argument completes to nothing. */
    public static Completions none(Prompts prompts) {
        return new Completions(Optional::empty, prompts);
    }

    /** The result for prompt {@code prompt}'s argument {@code argument} typed so far as {@code value}, as {@code access} sees the catalog. */
    public McpSchema.CompleteResult complete(String prompt, String argument, String value, Access access) {
        McpSchema.CompleteResult empty = new McpSchema.CompleteResult(new McpSchema.CompleteResult.CompleteCompletion(
                List.of(), 0, false));
        Function<ServedCatalog, List<String>> names = NAMES.get(argument);
        if (names == null || !prompts.takes(prompt, argument)) {
            return empty;
        }
        Optional<ServedCatalog> served;
        try {
            served = catalogs.current();
        } catch (CatalogProvider.StillLoading e) {
            return empty;   // a hint, not an answer: none rather than a wait past the bound
        }
        if (served.isEmpty()) {
            return empty;
        }
        String typed = value == null ? "" : value;
        // In a list the last item is the one being typed; each value keeps the items before it.
        String head = "";
        if (LISTS.contains(argument)) {
            int comma = typed.lastIndexOf(',');
            head = typed.substring(0, comma + 1).strip();
            typed = typed.substring(comma + 1);
        }
        return completion(rank(names.apply(served.get().scopedTo(access)), typed.strip()), head);
    }

    /** The first {@link #MAX} of {@code matches}, each after {@code head} (the list items already typed), with the total. */
    static McpSchema.CompleteResult completion(List<String> matches, String head) {
        List<String> values = new ArrayList<>();
        for (String m : matches.subList(0, Math.min(MAX, matches.size()))) {
            values.add(head.isEmpty() ? m : head + " " + m);
        }
        return new McpSchema.CompleteResult(new McpSchema.CompleteResult.CompleteCompletion(values, matches.size(),
                matches.size() > MAX));
    }

    /** Why a completion/complete cannot be answered: one sentence. */
    public static final class Refused extends IllegalArgumentException {
        Refused(String message) {
            super(message);
        }
    }

    /**
     * The answer to a completion/complete with reference type {@code refType} naming {@code name}.
     *
     * @throws Refused for a reference to no served prompt (this server has no resources)
     */
    public McpSchema.CompleteResult complete(String refType, String name, String argument, String value, Access access) {
        if (!McpSchema.PromptReference.TYPE.equals(refType) || !prompts.argumentNames().containsKey(name)) {
            throw new Refused("Invalid params: completion/complete completes the arguments of a served prompt (ref type "
                    + McpSchema.PromptReference.TYPE + "); prompts/list names " + String.join(", ",
                    prompts.argumentNames().keySet()) + ".");
        }
        return complete(name, argument, value, access);
    }

    /** The served prompts' names: the references the 2025 era's SDK routes completion/complete by. */
    public List<String> promptNames() {
        return List.copyOf(prompts.argumentNames().keySet());
    }

    /** As {@link #complete(String, String, String, Access)}, for the SDK's request. */
    public reactor.core.publisher.Mono<McpSchema.CompleteResult> answer(McpSchema.CompleteRequest request, Access access) {
        String prompt = request.ref() instanceof McpSchema.PromptReference p ? p.name() : null;
        return reactor.core.publisher.Mono.fromCallable(() -> complete(prompt, request.argument().name(),
                request.argument().value(), access));
    }

    /** Within a tier the shortest name first (the one least typing away), then alphabetical. */
    private static final Comparator<String> CLOSEST = Comparator.comparingInt(String::length)
            .thenComparing(Comparator.naturalOrder());

    /** Prefix matches, then substring matches, then in-order letter matches. */
    static List<String> rank(List<String> names, String typed) {
        String t = typed.toLowerCase(Locale.ROOT);
        Set<String> prefix = new TreeSet<>(CLOSEST);
        Set<String> contains = new TreeSet<>(CLOSEST);
        Set<String> fuzzy = new TreeSet<>(CLOSEST);
        for (String name : new LinkedHashSet<>(names)) {
            String n = name.toLowerCase(Locale.ROOT);
            String bare = n.substring(n.lastIndexOf('.') + 1);
            if (n.startsWith(t) || bare.startsWith(t)) {
                prefix.add(name);
            } else if (n.contains(t)) {
                contains.add(name);
            } else if (inOrder(n, t)) {
                fuzzy.add(name);
            }
        }
        List<String> out = new ArrayList<>(prefix);
        out.addAll(contains);
        out.addAll(fuzzy);
        return out;
    }

    private static boolean inOrder(String name, String typed) {
        int at = 0;
        for (int i = 0; i < typed.length(); i++) {
            at = name.indexOf(typed.charAt(i), at);
            if (at < 0) {
                return false;
            }
            at++;
        }
        return !typed.isEmpty();
    }

    private static List<String> tables(ServedCatalog view) {
        return view.catalog().tables().stream().map(t -> t.name().toString()).toList();
    }

    /** Column names of the caller's tables, each once. */
    private static List<String> columns(ServedCatalog view) {
        Set<String> out = new TreeSet<>();
        for (Table t : view.catalog().tables()) {
            t.columns().stream().map(Column::name).forEach(out::add);
        }
        return List.copyOf(out);
    }
}
