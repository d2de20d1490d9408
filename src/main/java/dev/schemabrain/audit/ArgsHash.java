package dev.schemabrain.audit;

import java.util.Map;

/** The identity of a call's arguments: sha256 of their canonical JSON, so the log never holds the values. */
public final class ArgsHash {

    private ArgsHash() {
    }

    public static String of(Map<String, Object> arguments) {
        return CanonicalJson.sha256Hex(CanonicalJson.bytes(arguments));
    }
}
