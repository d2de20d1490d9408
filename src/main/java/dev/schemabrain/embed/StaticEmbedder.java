package dev.schemabrain.embed;

import dev.schemabrain.error.EmbeddingException;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.util.ArrayList;
import java.util.List;

/**
 * A static embedding distilled from bge-small ({@link StaticTableGenerator}): a text's vector is the mean of its
 * WordPiece tokens' rows, each row already weighted by the token's rarity, scaled to unit length. Pure Java, no
 * model run: microseconds a text instead of milliseconds, at the cost of word order and context. Queries and
 * passages are embedded alike (the table has no instruction prefix). Thread-safe.
 */
public final class StaticEmbedder implements Embedder {

    public static final String MODEL_ID = "bge-small-en-v1.5-static-256-trained";
    static final String RESOURCE = "/embed/static-bge-small-256.bin";

    private final StaticTable table;
    private final WordPieceTokenizer tokenizer;
    private final int unknown;
    private volatile boolean closed;

    private StaticEmbedder(StaticTable table) {
        this.table = table;
        this.tokenizer = new WordPieceTokenizer(table.joinedVocabulary);
        this.unknown = tokenizer.unknownId();
    }

    /** Reads the table from the class path (25 MB, kept as read: the rows are not copied). */
    public static StaticEmbedder load() throws EmbeddingException {
        URL url = StaticEmbedder.class.getResource(RESOURCE);
        if (url == null) {
            throw new EmbeddingException("The static embedding table " + RESOURCE + " is missing from the class path;"
                    + " rebuild, or choose the bge-small embedder.");
        }
        try {
            URLConnection connection = url.openConnection();
            long size = connection.getContentLengthLong();
            try (InputStream in = connection.getInputStream()) {
                byte[] all;
                if (size < 0 || size > Integer.MAX_VALUE) {
                    all = in.readAllBytes();
                } else { // one array of the right size: readAllBytes would read in chunks and copy them
                    all = new byte[(int) size];
                    if (in.readNBytes(all, 0, all.length) != all.length) {
                        throw new IOException("the table ended early");
                    }
                }
                return new StaticEmbedder(StaticTable.read(all, false));
            }
        } catch (IOException e) {
            throw new EmbeddingException("Cannot read the static embedding table " + RESOURCE + " (" + e.getMessage()
                    + "); rebuild, or choose the bge-small embedder.", e);
        }
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimension() {
        return table.dims;
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(query, "query");
    }

    @Override
    public List<float[]> embedPassages(List<String> passages) {
        List<float[]> out = new ArrayList<>(passages.size());
        for (int i = 0; i < passages.size(); i++) {
            out.add(embed(passages.get(i), "passage " + i));
        }
        return out;
    }

    /** The token ids of a text, for tests. */
    int[] tokenIds(String text) {
        return tokenizer.ids(text);
    }

    private float[] embed(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the " + what + " is blank");
        }
        if (closed) {
            throw new IllegalStateException("the embedder is closed");
        }
        int dims = table.dims;
        float[] sum = new float[dims];
        int[] ids = tokenizer.ids(text);
        if (ids.length == 0) {
            ids = new int[] {unknown}; // only characters the normaliser drops: a vector all the same
        }
        byte[] rows = table.rows;
        for (int id : ids) {
            float scale = table.scales[id];
            int offset = table.rowOffset + id * dims;
            for (int d = 0; d < dims; d++) {
                sum[d] += scale * rows[offset + d];
            }
        }
        return Vectors.normalize(sum);
    }

    @Override
    public void close() {
        closed = true;
    }
}
