package dev.schemabrain.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Everything an SQLite store has on disk (the file, its WAL and shared memory), to grep for values that must not be there. */
public final class StoreBytes {

    private StoreBytes() {
    }

    /** The bytes of the store and its -wal and -shm files, one byte per char. */
    public static String of(Path store) throws IOException {
        StringBuilder all = new StringBuilder();
        for (String suffix : List.of("", "-wal", "-shm")) {
            Path p = Path.of(store + suffix);
            if (Files.exists(p)) {
                all.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        return all.toString();
    }
}
