package dev.schemabrain.source.ddl;

/**
 * One statement cut out of a script, comments already removed and without its delimiter.
 *
 * @param line 1-based line of the statement's first character, for error messages
 * @param backslashEscapes whether {@code '...'} literals treat a backslash as an escape (MySQL, or
 *                         PostgreSQL with {@code standard_conforming_strings = off})
 */
record RawStatement(String text, int line, boolean backslashEscapes) {
}
