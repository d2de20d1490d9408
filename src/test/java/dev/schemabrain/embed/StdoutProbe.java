package dev.schemabrain.embed;

import java.util.List;

/** Run in a child JVM by {@link NativeSideEffectsTest}: loads and uses the model, writing nothing itself. */
public final class StdoutProbe {

    public static void main(String[] args) throws Exception {
        try (OnnxEmbedder embedder = OnnxEmbedder.load()) {
            embedder.embedQuery("customer payments");
            embedder.embedPassages(List.of("payments made by customers", "the genre of a music track", "city"));
        }
        WordVocabulary.get();
    }
}
