package dev.schemabrain.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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

/**
 * One client's configuration file: the server entry merged into it, every other key kept as it was. A changed
 * file is first copied to {@code NAME.bak-YYYYMMDD-HHMMSS}; an entry already as it would be written changes
 * nothing; a file that is not a JSON object is refused before anything is written.
 */
final class ClientConfigFile {

    enum Outcome { CREATED, UPDATED, UNCHANGED }

    record Result(Outcome outcome, Path file, Path backup) {
    }

    static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // A number is written back as it was read (1.10 stays 1.10): the rest of the file is the client's.
            .setNodeFactory(com.fasterxml.jackson.databind.node.JsonNodeFactory.withExactBigDecimals(true));

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final long MAX_BYTES = 16L << 20;

    private ClientConfigFile() {
    }

    static Result merge(Path file, String serversKey, String name, JsonNode entry, Clock clock) throws SchemaBrainException {
        ObjectNode root = read(file);
        boolean existed = root != null;
        if (root == null) {
            root = JSON.createObjectNode();
        }
        JsonNode servers = root.get(serversKey);
        if (servers != null && !servers.isObject()) {
            throw new UserError(file + " has a \"" + serversKey + "\" that is not an object, so the server cannot be added"
                    + " safely; fix it by hand, or take the entry from 'schemabrain init --print'.");
        }
        ObjectNode serverMap = servers == null ? root.putObject(serversKey) : (ObjectNode) servers;
        if (entry.equals(serverMap.get(name))) {
            return new Result(Outcome.UNCHANGED, file, null);
        }
        serverMap.set(name, entry);
        Path backup = existed ? backup(file, clock) : null;
        try {
            PrivateFiles.write(file, (JSON.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return new Result(existed ? Outcome.UPDATED : Outcome.CREATED, file, backup);
    }

    /** The server entry {@code name} of the file, if the file exists and has one (doctor reads it). */
    static java.util.Optional<JsonNode> entry(Path file, String serversKey, String name) throws SchemaBrainException {
        ObjectNode root = read(file);
        return root == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(root.path(serversKey).get(name));
    }

    /** The file's object, or null when there is no file (an empty file counts as none). */
    private static ObjectNode read(Path file) throws SchemaBrainException {
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
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            String line = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")";
            throw new UserError(file + " is not valid JSON" + line + ", so nothing was"
                    + " written; fix the file, or add the entry from 'schemabrain init --print' by hand.");
        }
        if (!node.isObject()) {
            throw new UserError(file + " does not hold a JSON object, so nothing was written; fix the file, or add the"
                    + " entry from 'schemabrain init --print' by hand.");
        }
        return (ObjectNode) node;
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
