package dev.schemabrain.mining;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.mining.SearchPaths.Context;
import dev.schemabrain.pii.PiiTags;
import dev.schemabrain.sql.lex.Lexical;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One logged statement to the text that may be stored, with its analysis: normalized (every literal a
 * placeholder), parsed, its unqualified table names written with the schema they resolved to (so the example
 * runs whatever the reader's search_path), and the few literals {@link KeptLiterals} allows put back.
 */
final class ExampleSql {

    /** What became of a statement. */
    sealed interface Outcome {
        /** Session setup, DDL, utility statements: nothing to learn, not a parse failure. */
        record NotAQuery() implements Outcome {
        }

        record Unparsed() implements Outcome {
        }

        record Parsed(String sql, StatementAnalysis analysis) implements Outcome {
        }
    }

    private final CatalogNames names;
    private final StatementAnalyzer analyzer;
    private final Lexical lexical;

    ExampleSql(Catalog catalog, SearchPaths paths, PiiTags pii, Lexical lexical) {
        this.names = new CatalogNames(catalog);
        this.analyzer = new StatementAnalyzer(catalog, paths, pii);
        this.lexical = lexical;
    }

    Outcome of(String text, Context context) {
        SqlNormalizer.Template template = SqlNormalizer.template(text, lexical, names::isName);
        String plain = template.render(Set.of());
        if (!LogAnalysis.queryOrWrite(plain)) {
            return new Outcome.NotAQuery();
        }
        Optional<StatementAnalysis> analysis = analyzer.analyze(template.text(), context, template.literals());
        if (analysis.isEmpty()) {
            // A numbered marker may not parse where a bare ? does (a dialect's odd corner): keep no literal then.
            template = new SqlNormalizer.Template(plain, List.of());
            analysis = analyzer.analyze(plain, context, List.of());
        }
        if (analysis.isEmpty()) {
            return new Outcome.Unparsed();
        }
        StatementAnalysis a = analysis.get();
        String qualified = qualified(template.text(), a.names().qualify());
        return new Outcome.Parsed(new SqlNormalizer.Template(qualified, template.literals()).render(a.kept()), a);
    }

    /** The text with {@code schema.} written before each unqualified table name, from the last one back. */
    private String qualified(String text, Map<Integer, String> qualify) {
        StringBuilder out = new StringBuilder(text);
        for (Map.Entry<Integer, String> e : new TreeMap<>(qualify).descendingMap().entrySet()) {
            out.insert(e.getKey(), lexical.name(e.getValue()) + ".");
        }
        return out.toString();
    }
}
