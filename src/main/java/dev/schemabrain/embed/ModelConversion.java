package dev.schemabrain.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.schemabrain.error.EmbeddingException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Build step (run by Maven in process-classes): converts langchain4j's ONNX model into onnxruntime's own format,
 * which a session loads with its weights left in place: about 36 MB less resident memory a session and a third of
 * the session's creation time (docs/operations.md). The graph is saved with the extended optimisations, the ones
 * that hold on every CPU; the layout optimisations depend on the machine's vector width and are left out.
 *
 * <p>Usage: {@code ModelConversion OUT [INPUT...]}: writes OUT unless it is newer than every INPUT (the build file,
 * which names the model's and onnxruntime's versions).
 */
public final class ModelConversion {

    private ModelConversion() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: ModelConversion OUT [INPUT...]");
            System.exit(2);
        }
        Path out = Path.of(args[0]);
        if (upToDate(out, args)) {
            return;
        }
        convert(out);
    }

    /** Writes the model in ORT format to {@code out}, atomically. */
    static void convert(Path out) throws EmbeddingException, IOException {
        NativeLibs.load();
        ModelBytes onnx = ModelBytes.read(ModelBytes.Format.ONNX);
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path partial = Files.createTempFile(parent, "model", ".ort");
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.EXTENDED_OPT);
            options.setOptimizedModelFilePath(partial.toString());
            options.addConfigEntry("session.save_model_format", "ORT");
            OrtEnvironment.getEnvironment().createSession(onnx.bytes().duplicate(), options).close();
            if (Files.getFileStore(partial).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (OrtException e) {
            throw new EmbeddingException("Cannot convert the embedding model to ORT format: " + e.getMessage(), e);
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
