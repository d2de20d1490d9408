package dev.schemabrain.error;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/**
 * A file system failure in words an operator can act on, for the sentence of the code that knows the path
 * (which names the path itself): Java's own messages are often only the path, or a class name.
 */
public final class FileProblems {

    private FileProblems() {
    }

    /** Why {@code e} happened, without the path: "no such file or directory", "permission denied", ... */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT); // "Not a directory", "Read-only file system"
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
