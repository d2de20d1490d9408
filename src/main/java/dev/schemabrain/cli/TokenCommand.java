package dev.schemabrain.cli;

import dev.schemabrain.auth.TokenEntry;
import dev.schemabrain.auth.TokenStore;
import dev.schemabrain.error.SchemaBrainException;
import dev.schemabrain.error.StoreException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** {@code schemabrain token create|list|revoke}: bearer tokens for the HTTP service. */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Bearer tokens for 'serve --transport http': only each token's SHA-256 is kept, in the store"
                + " or in --tokens-file.")
final class TokenCommand extends CommandGroup {

    @Option(names = "--tokens-file", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "Keep the token hashes in this private file instead of the store.")
    Path tokensFile;

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Make a token named NAME and print it once; it cannot be shown again.")
    int create(@Parameters(paramLabel = "NAME", description = "Who or what will use the token (letters, digits, '.', '_', '-');"
            + " audit rows name the caller by it.") String name,
               @Option(names = "--role", paramLabel = "ROLE", description = "The role of the access policy"
                       + " (serve --access-policy) the bearer gets; without it the policy's default_role applies.") String role,
               @Option(names = "--claim", paramLabel = "NAME=VALUE", description = "A claim the role's row filters read,"
                       + " such as employee_id=3 (repeatable; for op in, values separated by commas).")
               Map<String, String> claims) throws SchemaBrainException {
        TokenStore tokens = tokens();
        String token = tokens.create(name, Optional.ofNullable(role), claims == null ? Map.of() : claims);
        main.out().println(token);
        main.err().println("Token " + name + " created in " + tokens.describe() + "; copy it now, it is not shown again."
                + " Clients send it as 'Authorization: Bearer <token>'.");
        return 0;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Print each token's name, creation time, role and claims (never the token).")
    int list() throws SchemaBrainException {
        List<TokenEntry> entries = tokens().list();
        PrintWriter out = main.out();
        for (TokenEntry e : entries) {
            out.println(e.name() + "\t" + e.createdAt() + "\t" + e.role().map(r -> "role=" + r).orElse("role=-")
                    + (e.claims().isEmpty() ? "" : "\t" + new TreeMap<>(e.claims()).entrySet().stream()
                    .map(c -> c.getKey() + "=" + c.getValue()).collect(Collectors.joining(","))));
        }
        if (entries.isEmpty()) {
            main.err().println("No tokens in " + tokens().describe() + "; 'schemabrain token create NAME' makes one.");
        }
        return 0;
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true,
            description = "Forget the token named NAME; a running server refuses it within a second.")
    int revoke(@Parameters(paramLabel = "NAME", description = "The token's name.") String name) throws SchemaBrainException {
        TokenStore tokens = tokens();
        tokens.revoke(name);
        main.out().println("Token " + name + " revoked in " + tokens.describe() + ".");
        return 0;
    }

    private TokenStore tokens() throws StoreException {
        return AuthOptions.tokenStore(tokensFile, main.store());
    }
}
