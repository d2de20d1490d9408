package dev.schemabrain.security;

/** The serve options the security suites share: a source, and no throttle that would hide what the payloads do. */
final class ServeArgs {

    private ServeArgs() {
    }

    static String[] source(String url) {
        return new String[]{"--source", url, "--metric-rate-limit", "off"};
    }
}
