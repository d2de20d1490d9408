package dev.schemabrain.retrieve;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * BM25 (Lucene's defaults, k1 1.2, b 0.75) over one document per table, in memory, plus a field of the table's
 * own names (its name and its columns'), boosted so a table's own name outweighs its mention in another table's
 * foreign-key sentence. The English
 * analyzer lower-cases, drops stop words and stems, so "invoices" meets "invoice". Document ids follow
 * the order the documents were given in.
 */
final class LexicalIndex {

    private static final String FIELD = "text";
    private static final String NAMES = "names";
    /** How much a table's own names weigh beside its whole document (which also names the tables its keys reach). */
    static final float OWN_NAMES = 0.5f;
    /** Only this many best documents get a BM25 score; the rest count as no match. */
    static final int MAX_HITS = 1000;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final IndexSearcher searcher;
    private final int size;

    LexicalIndex(List<String> documents) {
        this(documents, documents.stream().map(d -> "").toList());
    }

    /** @param names per document, its own names only (the table's and its columns'), for the own-name field */
    LexicalIndex(List<String> documents, List<String> names) {
        ByteBuffersDirectory directory = new ByteBuffersDirectory();
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (int i = 0; i < documents.size(); i++) {
                Document d = new Document();
                d.add(new TextField(FIELD, documents.get(i), Field.Store.NO));
                d.add(new TextField(NAMES, names.get(i), Field.Store.NO));
                writer.addDocument(d);
            }
            // One segment keeps document ids equal to insertion order.
            writer.forceMerge(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            searcher = new IndexSearcher(DirectoryReader.open(directory));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        size = documents.size();
    }

    /** Analyzed terms: lower case, no stop words, stemmed. */
    List<String> analyze(String text) {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = analyzer.tokenStream(FIELD, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Whether some document holds the analyzed term. */
    boolean holds(String term) {
        try {
            return searcher.getIndexReader().docFreq(new Term(FIELD, term)) > 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** BM25 score of each document for {@code query} (0 for documents matching no term). */
    float[] scores(String query) {
        return scores(query, Set.of(), 1);
    }

    /** As {@link #scores(String)}, with the analyzed terms in {@code lighter} weighted by {@code weight}. */
    float[] scores(String query, Set<String> lighter, float weight) {
        float[] scores = new float[size];
        BooleanQuery.Builder q = new BooleanQuery.Builder();
        int clauses = 0;
        for (String term : new LinkedHashSet<>(analyze(query))) {
            if (clauses++ == IndexSearcher.getMaxClauseCount()) {
                break;
            }
            float w = lighter.contains(term) ? weight : 1;
            q.add(boosted(new TermQuery(new Term(FIELD, term)), w), BooleanClause.Occur.SHOULD);
            if (OWN_NAMES > 0 && clauses++ < IndexSearcher.getMaxClauseCount()) {
                q.add(new BoostQuery(new TermQuery(new Term(NAMES, term)), OWN_NAMES * w), BooleanClause.Occur.SHOULD);
            }
        }
        if (clauses == 0 || size == 0) {
            return scores;
        }
        try {
            for (ScoreDoc hit : searcher.search(q.build(), Math.min(MAX_HITS, size)).scoreDocs) {
                scores[hit.doc] = hit.score;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return scores;
    }

    private static Query boosted(Query q, float weight) {
        return weight == 1 ? q : new BoostQuery(q, weight);
    }
}
