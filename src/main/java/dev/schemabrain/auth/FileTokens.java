package dev.schemabrain.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.UnsafeFileException;
import dev.schemabrain.error.UserError;
import dev.schemabrain.files.PrivateFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Token hashes in a private JSON file ({@code --tokens-file}), for a service whose store is read-only or
 * shared: {@code {"version":1,"tokens":[{"name","created_at","sha256","role","claims"}]}} (role and claims
 * only when the token has them, so a file written before roles reads as tokens without). The file must be the
 * operator's own and writable by nobody else, since whoever can write it can let themselves in.
 */
public record FileTokens(Path file) implements TokenStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String create(String name, Optional<String> role, Map<String, String> claims) throws SchemaBrainException {
        Tokens.checkName(name);
        if (role.isPresent()) {
            Tokens.checkRole(role.get());
        }
        Tokens.checkClaims(claims);
        List<TokenEntry> entries = new ArrayList<>(list());
        if (entries.stream().anyMatch(e -> e.name().equals(name))) {
            throw StoreTokens.exists(name);
        }
        String token = Tokens.newToken();
        entries.add(new TokenEntry(name, Instant.now(), Tokens.hash(token), role, claims));
        write(entries);
        return token;
    }

    @Override
    public List<TokenEntry> list() throws SchemaBrainException {
        PrivateFiles.check(file);
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            JsonNode root = JSON.readTree(Files.readAllBytes(file));
            List<TokenEntry> out = new ArrayList<>();
            for (JsonNode t : root.path("tokens")) {
                // A file written before roles has neither key: no role, no claims.
                Map<String, String> claims = new TreeMap<>();
                t.path("claims").fields().forEachRemaining(c -> claims.put(c.getKey(), c.getValue().asText()));
                Optional<String> role = t.hasNonNull("role") ? Optional.of(t.get("role").asText()) : Optional.empty();
                out.add(new TokenEntry(t.path("name").asText(), Instant.parse(t.path("created_at").asText()),
                        t.path("sha256").asText(), role, claims));
            }
            out.sort(Comparator.comparing(TokenEntry::name));
            return List.copyOf(out);
        } catch (JsonProcessingException | DateTimeParseException e) {
            throw new UserError(SchemaBrainException.Kind.INPUT, "The tokens file " + file + " is not one 'schemabrain token create'"
                    + " wrote; fix it or pass another --tokens-file.", e);
        } catch (IOException e) {
            throw new UserError(SchemaBrainException.Kind.UNAVAILABLE, "Cannot read the tokens file " + file
                    + "; check the path and its permissions.", e);
        }
    }

    @Override
    public void revoke(String name) throws SchemaBrainException {
        Tokens.checkName(name);
        List<TokenEntry> entries = new ArrayList<>(list());
        if (!entries.removeIf(e -> e.name().equals(name))) {
            throw StoreTokens.missing(name, describe());
        }
        write(entries);
    }

    @Override
    public String describe() {
        return "the tokens file " + file;
    }

    private void write(List<TokenEntry> entries) throws UnsafeFileException {
        ObjectNode root = JSON.createObjectNode().put("version", 1);
        ArrayNode tokens = root.putArray("tokens");
        for (TokenEntry e : entries) {
            ObjectNode t = tokens.addObject().put("name", e.name()).put("created_at", e.createdAt().toString())
                    .put("sha256", e.sha256());
            e.role().ifPresent(r -> t.put("role", r));
            if (!e.claims().isEmpty()) {
                ObjectNode claims = t.putObject("claims");
                new TreeMap<>(e.claims()).forEach(claims::put);
            }
        }
        try {
            PrivateFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings always serializes", e);
        }
    }
}
