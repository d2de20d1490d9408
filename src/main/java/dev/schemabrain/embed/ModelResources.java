package dev.schemabrain.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.schemabrain.catalog.EnglishVocabulary;
import dev.schemabrain.error.EmbeddingException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.TreeSet;

/**
 * Build step (run by Maven in process-classes): langchain4j's model resources as a server reads them fastest.
 * <ul>
 *   <li>the ONNX model converted into onnxruntime's own format, whose sessions take the weights from our buffer
 *       instead of a copy each and skip the graph optimisation (the model's load 464-481 against 413-420 ms,
 *       docs/operations.md). The graph is saved with the extended optimisations, the ones that hold on every CPU;
 *       the layout optimisations depend on the machine's vector width and are left out;</li>
 *   <li>the tokenizer's English words, one a line ({@link EnglishVocabulary}): parsing the tokenizer's JSON was half
 *       of the catalog load a first describe_table waits for.</li>
 * </ul>
 *
 * <p>Usage: {@code ModelResources DIR [INPUT...]}: writes both files into DIR unless each is newer than every INPUT
 * (the build file, which names the model's and onnxruntime's versions).
 */
public final class ModelResources {

    private ModelResources() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ModelResources DIR [INPUT...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Path model = dir.resolve(OnnxEmbedder.ORT_RESOURCE.substring(1));
        if (!upToDate(model, args)) {
            convertModel(model);
        }
        Path words = dir.resolve(EnglishVocabulary.WORDS_RESOURCE.substring(1));
        if (!upToDate(words, args)) {
            writeAtomically(words, partial -> Files.write(partial, new TreeSet<>(EnglishVocabulary.fromTokenizer()),
                    StandardCharsets.US_ASCII));
        }
    }

    /** Writes the model in ORT format to {@code out}, atomically. */
    static void convertModel(Path out) throws EmbeddingException, IOException {
        NativeLibs.load();
        ModelBytes onnx = ModelBytes.read(ModelBytes.Format.ONNX);
        writeAtomically(out, partial -> {
            try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
                options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.EXTENDED_OPT);
                options.setOptimizedModelFilePath(partial.toString());
                options.addConfigEntry("session.save_model_format", "ORT");
                OrtEnvironment.getEnvironment().createSession(onnx.bytes().duplicate(), options).close();
            } catch (OrtException e) {
                throw new IOException("cannot convert the embedding model to ORT format: " + e.getMessage(), e);
            }
        });
    }

    private interface Writer {
        void write(Path partial) throws IOException;
    }

    /** Writes through a temporary file beside {@code out}, readable by all (a class path resource), then moves it. */
    private static void writeAtomically(Path out, Writer writer) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path partial = Files.createTempFile(parent, "resource", ".partial");
        try {
            writer.write(partial);
            if (Files.getFileStore(partial).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private static boolean upToDate(Path out, String[] args) throws IOException {
        if (!Files.isRegularFile(out) || Files.size(out) == 0) {
            return false;
        }
        for (int i = 1; i < args.length; i++) {
            if (Files.getLastModifiedTime(Path.of(args[i])).compareTo(Files.getLastModifiedTime(out)) >= 0) {
                return false;
            }
        }
        return true;
    }
}
