package dev.schemabrain.source.ddl;

/** A statement the light parser could not make sense of; the caller adds the file and line. */
final class DdlSyntaxException extends RuntimeException {

    DdlSyntaxException(String message) {
        super(message);
    }
}
