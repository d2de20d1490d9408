package dev.schemabrain.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.files.PrivateFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * One client's configuration file: the server entry merged into it, every other key kept as it was. A changed
 * file is first copied to {@code NAME.bak-YYYYMMDD-HHMMSS}; an entry already as it would be written changes
 * nothing; a file that is not a JSON object is refused before anything is written. VS Code's comments are kept
 * by editing only the entry's text ({@link JsoncEdit}).
 */
final class ClientConfigFile {

    /** UPDATED: the entry added to an existing file; REPLACED: an entry of that name was there and differed. */
    enum Outcome { CREATED, UPDATED, REPLACED, UNCHANGED }

    record Result(Outcome outcome, Path file, Path backup) {
    }

    static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // A number is written back as it was read (1.10 stays 1.10): the rest of the file is the client's.
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));

    /** VS Code's own dialect: line and block comments, trailing commas. */
    private static final ObjectMapper JSONC = JSON.copy()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS.mappedFeature())
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA.mappedFeature());

    private record Parsed(ObjectNode root, String text, boolean needsJsonc) {
    }

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final long MAX_BYTES = 16L << 20;

    private ClientConfigFile() {
    }

    /**
     * Merges the entry. With {@code jsonc} (VS Code) a file with comments or trailing commas is accepted and edited
     * only around the entry, so its comments stay; a plain JSON file is rewritten whole, as for every client.
     */
    static Result merge(Path file, String serversKey, String name, JsonNode entry, boolean jsonc, Clock clock)
            throws SchemaBrainException {
        Parsed parsed = read(file, jsonc);
        boolean existed = parsed != null;
        ObjectNode root = existed ? parsed.root() : JSON.createObjectNode();
        JsonNode servers = root.get(serversKey);
        if (servers != null && !servers.isObject()) {
            throw new UserError(file + " has a \"" + serversKey + "\" that is not an object, so the server cannot be added"
                    + " safely; fix it by hand, or take the entry from 'schemabrain init --print'.");
        }
        ObjectNode serverMap = servers == null ? root.putObject(serversKey) : (ObjectNode) servers;
        if (entry.equals(serverMap.get(name))) {
            return new Result(Outcome.UNCHANGED, file, null);
        }
        boolean replaced = serverMap.has(name);
        serverMap.set(name, entry);
        String written;
        try {
            written = existed && parsed.needsJsonc() ? spliced(file, parsed.text(), serversKey, name, entry, root)
                    : JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        Path backup = existed ? backup(file, clock) : null;
        PrivateFiles.write(file, written.getBytes(StandardCharsets.UTF_8));
        return new Result(!existed ? Outcome.CREATED : replaced ? Outcome.REPLACED : Outcome.UPDATED, file, backup);
    }

    /** The text with the entry set around it alone, checked by reading it back as the tree it must be. */
    private static String spliced(Path file, String text, String serversKey, String name, JsonNode entry,
                                  ObjectNode expected) throws SchemaBrainException {
        String edited = JsoncEdit.set(text, serversKey, name, entry);
        try {
            if (expected.equals(JSONC.readTree(edited))) {
                return edited;
            }
        } catch (JsonProcessingException e) {
            // Refused below: a splice that does not read back is never written.
        }
        throw new UserError(file + " could not be edited around its comments without changing something else, so"
                + " nothing was written; add the entry from 'schemabrain init --print --client vscode' by hand.");
    }

    /** The server entry {@code name} of the file, if the file exists and has one (doctor reads it, comments allowed). */
    static Optional<JsonNode> entry(Path file, String serversKey, String name) throws SchemaBrainException {
        Parsed parsed = read(file, true);
        return parsed == null ? Optional.empty()
                : Optional.ofNullable(parsed.root().path(serversKey).get(name));
    }

    /** The file's object, or null when there is no file (an empty file counts as none). */
    private static Parsed read(Path file, boolean jsonc) throws SchemaBrainException {
        if (!Files.exists(file)) {
            return null;
        }
        PrivateFiles.check(file);
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new UserError(file + " is larger than 16 MiB, which no client configuration is; check the path, or"
                        + " take the entry from 'schemabrain init --print'.");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "Cannot read " + file + " (" + e.getMessage() + "); check its permissions.", e);
        }
        if (text.isBlank()) {
            return null;
        }
        JsonNode node;
        boolean needsJsonc = false;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            try {
                if (!jsonc) {
                    throw e;
                }
                node = JSONC.readTree(text);
                needsJsonc = true;
            } catch (JsonProcessingException lenient) {
                String line = lenient.getLocation() == null ? "" : " (line " + lenient.getLocation().getLineNr() + ")";
                throw new UserError(file + " is not valid JSON" + (jsonc ? " even with comments" : "") + line
                        + ", so nothing was written; fix the file, or add the entry from 'schemabrain init --print' by hand.");
            }
        }
        if (!node.isObject()) {
            throw new UserError(file + " does not hold a JSON object, so nothing was written; fix the file, or add the"
                    + " entry from 'schemabrain init --print' by hand.");
        }
        return new Parsed((ObjectNode) node, text, needsJsonc);
    }

    private static Path backup(Path file, Clock clock) throws UserError {
        Path backup = file.resolveSibling(file.getFileName() + ".bak-" + STAMP.format(clock.instant()));
        for (int n = 2; Files.exists(backup); n++) {
            backup = file.resolveSibling(file.getFileName() + ".bak-" + STAMP.format(clock.instant()) + "-" + n);
        }
        try {
            Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "Cannot back up " + file + " to " + backup + " (" + e.getMessage() + "), so nothing was"
                    + " written; check the directory's permissions.", e);
        }
        return backup;
    }
}
