package dev.schemabrain.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The build's version and git revision, from resources Maven fills in. */
public final class Version {

    private static final String VERSION = load("/dev/schemabrain/version.txt", "dev");
    private static final String REVISION = load("/dev/schemabrain/revision.txt", "unknown");

    private Version() {
    }

    public static String get() {
        return VERSION;
    }

    /** {@code git describe} of the sources built (a "-dirty" suffix for uncommitted changes), or "unknown". */
    public static String revision() {
        return REVISION;
    }

    private static String load(String resource, String fallback) {
        try (InputStream in = Version.class.getResourceAsStream(resource)) {
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            // An unfilled placeholder: built outside Maven, or (the revision) from sources without git.
            return text.isEmpty() || text.startsWith("${") ? fallback : text;
        } catch (IOException e) {
            return fallback;
        }
    }
}
