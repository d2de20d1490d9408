package dev.schemabrain.cli;

import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.StoreException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.retrieve.HybridRetriever;
import dev.schemabrain.retrieve.eval.EvalResult;
import dev.schemabrain.retrieve.eval.Evaluation;
import dev.schemabrain.retrieve.eval.Question;
import dev.schemabrain.retrieve.eval.QuestionFile;
import dev.schemabrain.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;

/** {@code schemabrain eval}: scores table retrieval on the store against a question file. */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Score table retrieval on the store against a question file.",
                "Reports recall@1/3/5/10, full@k (all expected tables in the top k), MRR of the first expected table"
                        + " and query latency p50/p95. FILE is a golden file {version: \"1\", questions: [{id, question,"
                        + " expected_tables: [schema.table]}]} or a Spider-format list [{db_id, question, gold_tables: [table]}]."})
final class EvalCommand implements Callable<Integer> {

    enum Retriever { hybrid, embedding, keyword }

    @ParentCommand
    Main main;

    @Option(names = "--questions", required = true, paramLabel = "FILE", description = "The question file.")
    Path questions;

    @Option(names = "--per-schema", description = "Search only each question's own schema (its db_id, or the schema of its first expected table).")
    boolean perSchema;

    @Option(names = "--retriever", defaultValue = "hybrid", paramLabel = "KIND",
            description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Retriever retriever;

    @Option(names = "--json", description = "Print the scores as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws UserError, StoreException {
        List<Question> loaded;
        try {
            loaded = QuestionFile.load(questions);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, e.getMessage() + "; fix the file and run eval again.");
        }
        if (!Stores.exists(main.store())) {
            throw new UserError("there is no store at " + main.store() + "; index the schema the questions are about first "
                    + "(schemabrain index --source URL).");
        }
        Optional<ServedCatalog> served = new StoreCatalogProvider(main.store(), Optional.empty()).current();
        if (served.isEmpty()) {
            throw new UserError("the store " + main.store() + " holds no indexed table; run schemabrain index first.");
        }
        HybridRetriever.Mode mode = HybridRetriever.Mode.valueOf(retriever.name().toUpperCase(Locale.ROOT));
        HybridRetriever ranker = served.get().retriever(mode);
        if (mode != HybridRetriever.Mode.KEYWORD && !ranker.dense()) {
            throw new UserError("the store has no embeddings or the embedding model cannot be loaded, so --retriever "
                    + retriever + " cannot run; re-index with this version, or use --retriever keyword.");
        }
        Set<String> indexed = served.get().catalog().tables().stream()
                .map(t -> t.name().toString().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        long missing = loaded.stream().flatMap(q -> q.expected().stream()).map(n -> n.toLowerCase(Locale.ROOT))
                .distinct().filter(n -> !indexed.contains(n)).count();
        if (missing > 0) {
            main.err().println("schemabrain: warning: " + missing + " expected table(s) are not in the store; they count as misses.");
        }
        ranker.warmUp(500, 1_000);
        EvalResult result = Evaluation.run(ranker, loaded, perSchema);
        PrintWriter out = main.out();
        if (json) {
            out.println(result.toJson());
        } else {
            out.printf("%s retriever, %s, on %s%n", retriever, perSchema ? "per schema" : "all schemas pooled", questions);
            out.print(result.toText());
        }
        return 0;
    }
}
