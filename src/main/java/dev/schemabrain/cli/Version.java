package dev.schemabrain.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** The build's version, from a resource Maven fills in. */
public final class Version {

    private static final String VERSION = load();

    private Version() {
    }

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/schemabrain/version.txt")) {
            String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            return text.isEmpty() || text.startsWith("${") ? "dev" : text;
        } catch (IOException e) {
            return "dev";
        }
    }
}
