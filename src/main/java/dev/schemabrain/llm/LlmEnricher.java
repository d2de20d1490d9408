package dev.schemabrain.llm;

import dev.schemabrain.catalog.InjectionScreen;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.describe.Description;
import dev.schemabrain.describe.DescriptionOrigin;
import dev.schemabrain.describe.Words;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.index.DescriptionEnricher;
import dev.schemabrain.store.DocumentKey;
import dev.schemabrain.store.DocumentRepository.StoredDocument;
import dev.schemabrain.store.Store;
import dev.schemabrain.store.Stores;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The LLM enricher: one request per table whose document, prompt version or model changed
 * since its last description; the rest reuse their stored sentences at no cost. Requests run on
 * {@code workers} threads under a hard per-run cap; a table that fails keeps its offline description,
 * and an unreachable endpoint stops all requests. Nothing here fails an index run.
 */
public final class LlmEnricher implements DescriptionEnricher {

    private final LlmOptions options;
    private final Words words;
    private final Set<String> vocabulary;
    private volatile LlmSummary summary = LlmSummary.NONE;

    public LlmEnricher(LlmOptions options, Set<String> vocabulary) {
        this.options = options;
        this.vocabulary = vocabulary;
        this.words = new Words(vocabulary);
    }

    /** The last run's summary. */
    public LlmSummary summary() {
        return summary;
    }

    @Override
    public boolean asks() {
        return options.asks();
    }

    private record Job(TablePrompt prompt, String model, PriceTable prices) {
    }

    @Override
    public Enrichment enrich(Input in) throws StoreException {
        Map<QualifiedName, LlmStore.Cached> cache = Map.of();
        if (in.storeExisted()) {
            try (Store store = Stores.open(in.store())) {
                cache = store.read(c -> LlmStore.cache(c, in.sourceId()));
            }
        }
        Map<DocumentKey, Description> out = new ConcurrentHashMap<>();
        List<Job> jobs = new ArrayList<>();
        Set<QualifiedName> stale = new HashSet<>();
        int cached = 0;
        for (Table table : in.catalog().tables()) {
            Set<String> pii = table.columns().stream().map(Column::name)
                    .filter(c -> in.piiColumns().contains(table.name() + "." + c)).collect(Collectors.toSet());
            TablePrompt prompt = TablePrompt.of(table, pii);
            boolean strong = options.asks() && options.strongModel() != null && cryptic(table);
            String model = !options.asks() ? null : strong ? options.strongModel() : options.model();
            LlmStore.Cached before = cache.get(table.name());
            if (before != null && before.cacheKey().equals(prompt.cacheKey()) && (model == null || model.equals(before.model()))) {
                cached += reuse(table, in.stored(), out) ? 1 : 0;
                if (planted(table, in.stored())) {
                    stale.add(table.name());   // its refused sentences give way to the offline ones
                }
            } else if (options.asks()) {
                jobs.add(new Job(prompt, model, strong ? options.strongPrices() : options.prices()));
                stale.add(table.name());
            } else if (before != null) {
                stale.add(table.name());
            }
        }
        if (!options.asks()) {
            summary = LlmSummary.NONE;
            return new Enrichment(out, stale, c -> null);
        }
        if (in.dryRun()) {
            summary = estimate(in, jobs, cached);
            return new Enrichment(out, stale, c -> null);
        }
        return ask(in, jobs, cached, out, stale);
    }

    /** A dry run: what the requests would cost, estimated from their prompts; nothing is asked. */
    private LlmSummary estimate(Input in, List<Job> jobs, int cached) {
        long estIn = 0;
        long estOut = 0;
        double usd = 0;
        for (Job j : jobs) {
            long i = inputTokens(j.prompt());
            long o = outputTokens(j.prompt());
            estIn += i;
            estOut += o;
            usd += j.prices().usd(i, o);
        }
        return new LlmSummary(true, true, options.provider().name(), options.model(), in.catalog().tables().size(),
                0, cached, 0, 0, 0, 0, 0, 0, options.maxCost(), estIn, estOut, usd, List.of());
    }

    private Enrichment ask(Input in, List<Job> jobs, int cached, Map<DocumentKey, Description> out, Set<QualifiedName> stale) {
        Asking run = new Asking(in, out);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, options.workers()), r -> {
            Thread t = new Thread(r, "schemabrain-llm");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Job job : jobs) {
                futures.add(pool.submit(() -> run.request(job)));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            run.failures.add("an enrichment worker failed: " + e.getCause());
        } finally {
            pool.shutdownNow();
        }
        summary = new LlmSummary(true, false, options.provider().name(), options.model(), in.catalog().tables().size(),
                run.requests.get(), cached, run.failed.get(), run.left.get(), run.unreachable.get(), run.inTokens.get(),
                run.outTokens.get(), run.budget.spent(), options.maxCost(), 0, 0, 0, run.warnings());
        List<LlmStore.Described> d = List.copyOf(run.described);
        List<LlmStore.Spend> s = List.copyOf(run.spend);
        String at = run.at;
        return new Enrichment(Map.copyOf(out), Set.copyOf(stale), c -> {
            LlmStore.write(c, in.sourceId(), at, d, s);
            return null;
        });
    }

    /** One run's requests, made from several threads, and their tally; an unreachable endpoint stops the rest. */
    private final class Asking {
        final Input in;
        final Map<DocumentKey, Description> out;
        final String at;
        final Budget budget = new Budget(options.maxCost());
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicInteger requests = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final AtomicInteger left = new AtomicInteger();
        final AtomicInteger unreachable = new AtomicInteger();
        final AtomicLong inTokens = new AtomicLong();
        final AtomicLong outTokens = new AtomicLong();
        final List<LlmStore.Described> described = Collections.synchronizedList(new ArrayList<>());
        final List<LlmStore.Spend> spend = Collections.synchronizedList(new ArrayList<>());
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        final List<String> screened = Collections.synchronizedList(new ArrayList<>());

        Asking(Input in, Map<DocumentKey, Description> out) {
            this.in = in;
            this.out = out;
            this.at = in.startedAt().toString();
        }

        /** Asks for {@code job}'s table within the budget; its failure is this table's only, never the run's. */
        void request(Job job) {
            if (down.get()) {
                unreachable.incrementAndGet();
                return;
            }
            TablePrompt p = job.prompt();
            // The worst case this request allows: the model may use every output token it is granted.
            double reserved = budget.reserve(job.prices().usd(inputTokens(p), maxOutputTokens(p)));
            if (reserved < 0) {
                left.incrementAndGet();
                return;
            }
            double cost = 0;
            try {
                requests.incrementAndGet();
                LlmReply reply = options.provider().describe(job.model(), TablePrompt.SYSTEM, p.document(), maxOutputTokens(p));
                cost = billed(job, p, reply.inputTokens(), reply.outputTokens());
                ReplyCheck.Checked checked = ReplyCheck.check(reply, names(p.table()));
                checked.refused().ifPresent(why -> screened.add(p.table().name() + " (" + why + ")"));
                apply(p.table(), checked, out);
                described.add(new LlmStore.Described(p.table().name(), p.cacheKey(), job.model(),
                        Description.LlmDraft.cleanModel(reply.model()), p.confidence()));
            } catch (LlmException e) {
                cost = failed(job, p, e);
            } catch (RuntimeException e) {
                // An answer shaped in a way nothing above foresaw: this table only, never the run.
                failed.incrementAndGet();
                failures.add(p.table().name() + " (an unexpected answer: " + e.getClass().getSimpleName() + ")");
            } finally {
                budget.settle(reserved, cost);
            }
        }

        /** The tokens a request was billed for, into the tally and the ledger; answers their cost. */
        private double billed(Job job, TablePrompt p, long input, long output) {
            double cost = job.prices().usd(input, output);
            inTokens.addAndGet(input);
            outTokens.addAndGet(output);
            spend.add(new LlmStore.Spend(at, in.sourceId(), options.provider().name(), job.model(), p.table().name(),
                    input, output, cost));
            return cost;
        }

        /** A request that failed; answers what it cost (an answer without descriptions may still be billed). */
        private double failed(Job job, TablePrompt p, LlmException e) {
            double cost = 0;
            if (e.inputTokens() + e.outputTokens() > 0) {
                // Answered without descriptions, but billed: the ledger says what the provider's usage says.
                cost = billed(job, p, e.inputTokens(), e.outputTokens());
            }
            if (e.unreachable()) {
                down.set(true);
                failures.add(0, e.getMessage());
                unreachable.incrementAndGet();
            } else {
                failed.incrementAndGet();
                failures.add(p.table().name() + " (" + e.getMessage() + ")");
            }
            return cost;
        }

        List<String> warnings() {
            List<String> warnings = new ArrayList<>();
            if (down.get()) {
                warnings.add("the LLM endpoint " + options.provider().endpoint() + " could not be reached; "
                        + (unreachable.get() + failed.get()) + " tables keep their offline descriptions (the next run asks again).");
            } else if (!failures.isEmpty()) {
                warnings.add(failures.size() + " tables keep their offline descriptions after failed LLM requests: "
                        + failures.stream().limit(3).collect(Collectors.joining("; ")) + (failures.size() > 3 ? "; …" : "")
                        + " (the next run asks again).");
            }
            if (!screened.isEmpty()) {
                warnings.add(screened.size() + " tables keep their offline descriptions because the model's answer read as"
                        + " instructions to an agent, not a description: " + screened.stream().limit(3).collect(Collectors.joining("; "))
                        + (screened.size() > 3 ? "; …" : "") + " (check the tables' comments and sample values for planted text).");
            }
            return warnings;
        }
    }

    /** A table described earlier, unchanged since: its stored LLM sentences stand. */
    private static boolean reuse(Table table, Map<DocumentKey, StoredDocument> stored, Map<DocumentKey, Description> out) {
        boolean any = false;
        List<DocumentKey> keys = new ArrayList<>();
        keys.add(DocumentKey.table(table.name()));
        table.columns().forEach(c -> keys.add(DocumentKey.column(table.name(), c.name())));
        for (DocumentKey key : keys) {
            StoredDocument doc = stored.get(key);
            // A stored answer is screened again: one written before the screen existed must not be served on.
            if (doc != null && doc.description() != null && DescriptionOrigin.LLM.wireName().equals(doc.origin())
                    && InjectionScreen.reason(doc.description()).isEmpty()) {
                out.put(key, new Description(doc.description(), DescriptionOrigin.LLM));
                any = true;
            }
        }
        return any;
    }

    /** Whether a stored LLM sentence of the table reads as instructions (stored before the screen existed). */
    private static boolean planted(Table table, Map<DocumentKey, StoredDocument> stored) {
        List<DocumentKey> keys = new ArrayList<>();
        keys.add(DocumentKey.table(table.name()));
        table.columns().forEach(c -> keys.add(DocumentKey.column(table.name(), c.name())));
        return keys.stream().map(stored::get).anyMatch(doc -> doc != null && doc.description() != null
                && DescriptionOrigin.LLM.wireName().equals(doc.origin()) && InjectionScreen.reason(doc.description()).isPresent());
    }

    private static void apply(Table table, ReplyCheck.Checked checked, Map<DocumentKey, Description> out) {
        checked.table().ifPresent(t -> out.put(DocumentKey.table(table.name()), new Description(t, DescriptionOrigin.LLM)));
        checked.columns().forEach((column, text) ->
                out.put(DocumentKey.column(table.name(), column), new Description(text, DescriptionOrigin.LLM)));
    }

    private static Set<String> names(Table table) {
        return table.columns().stream().map(Column::name).collect(Collectors.toSet());
    }

    /** Roughly four characters a token, plus the system prompt and the tool schema. */
    static long inputTokens(TablePrompt p) {
        return (TablePrompt.SYSTEM.length() + p.document().length()) / 4 + 300;
    }

    static long outputTokens(TablePrompt p) {
        return 40 + 30L * p.table().columns().size();
    }

    /**
     * The output tokens a request is granted (its max_tokens): room for a full 300-character description per
     * column and the JSON around it, so an honest answer fits and a runaway one is cut where the cap counted.
     */
    static int maxOutputTokens(TablePrompt p) {
        return (int) Math.min(MAX_OUTPUT_TOKENS, 150 + 110L * p.table().columns().size());
    }

    static final int MAX_OUTPUT_TOKENS = 8192;

    /** Low word coverage: fewer than half of the table's name pieces are words or known abbreviations. */
    boolean cryptic(Table table) {
        int pieces = 0;
        int understood = 0;
        for (Column c : table.columns()) {
            for (String piece : Words.pieces(c.name())) {
                if (piece.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                pieces++;
                boolean word = piece.length() > 3 && vocabulary.contains(piece);
                if (word || !words.of(piece).equals(List.of(piece))) {
                    understood++;
                }
            }
        }
        return pieces > 0 && understood * 2 < pieces;
    }

    /**
     * The per-run hard cap: a request starts only if what is spent, what is in flight and this request
     * (the larger of its estimate and the dearest request so far) stay within the cap.
     */
    private static final class Budget {
        private final double cap;
        private double spent;
        private double reserved;
        private double dearest;
        private boolean stopped;

        Budget(double cap) {
            this.cap = cap;
        }

        /** @return the amount reserved, or -1 when the cap stops this and every later request */
        synchronized double reserve(double estimate) {
            double r = Math.max(estimate, dearest);
            if (stopped || spent + reserved + r > cap + 1e-12) {
                stopped = true;
                return -1;
            }
            reserved += r;
            return r;
        }

        synchronized void settle(double amount, double actual) {
            if (amount < 0) {
                return;
            }
            reserved -= amount;
            spent += actual;
            dearest = Math.max(dearest, actual);
        }

        synchronized double spent() {
            return spent;
        }
    }
}
