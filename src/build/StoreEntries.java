import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Build step (mvn package, after the jar is shaded): rewrites the named entries of a jar uncompressed (STORED), so
 * that reading them at run time is a copy, not an inflate. The embedding model and its native libraries are read whole
 * when a server loads them: inflating them was about 230 ms of the model's load (docs/operations.md). The other
 * entries are copied as they are.
 *
 * <p>Usage: {@code java src/build/StoreEntries.java JAR ENTRY...}
 */
public class StoreEntries {

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: java src/build/StoreEntries.java JAR ENTRY...");
            System.exit(2);
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        URI uri = URI.create("jar:" + jar.toUri());
        // noCompression: entries written through this file system are STORED; the untouched ones are copied raw.
        try (FileSystem zip = FileSystems.newFileSystem(uri, Map.of("noCompression", "true"))) {
            for (int i = 1; i < args.length; i++) {
                Path entry = zip.getPath(args[i]);
                if (!Files.exists(entry)) {
                    System.err.println("StoreEntries: " + args[i] + " is not in " + jar);
                    System.exit(1);
                }
                byte[] bytes = Files.readAllBytes(entry);
                Files.delete(entry);
                Files.write(entry, bytes);
            }
        }
    }
}
