package dev.schemabrain.cli;

import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.Sources;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code --source URL} or {@code --url-env VAR}, at most one (picocli refuses both), for every command that reads a
 * database. The descriptions are index's; serve words them for get_metric in its resource bundle.
 */
final class SourceOptions {

    static final class Choice {
        @Option(names = "--source", paramLabel = "URL",
                description = "The source URL. A password in it is visible in shell history; prefer --url-env.")
        String url;

        @Option(names = "--url-env", paramLabel = "VAR", description = "Read the source URL from this environment variable.")
        String urlEnv;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Choice choice;

    boolean given() {
        return choice != null;
    }

    /**
     * What to run to index the same source into the store, as advice after a failure: the --url-env form as given,
     * or --source with the URL as given when it holds no secret; otherwise the URL belongs in a variable.
     */
    String indexAdvice(SourceUrl url, String storeOption) {
        if (choice != null && choice.urlEnv != null) {
            return "run 'schemabrain index --url-env " + choice.urlEnv + storeOption + "'";
        }
        if (choice == null || !url.holdsNoSecret()) {
            return "put the URL of " + url.displayUrl() + " with its credentials in a variable, say DATABASE_URL, and run"
                    + " 'schemabrain index --url-env DATABASE_URL" + storeOption + "'";
        }
        String given = url.path() != null ? url.displayUrl() : choice.url.strip();
        return "run 'schemabrain index --source " + given + storeOption + "'";
    }

    /** The URL from the option or the environment; a password typed on the command line is warned about. */
    SourceUrl resolve(Map<String, String> env, PrintWriter err) throws SourceException {
        String url = choice == null ? null : choice.url;
        SourceUrl resolved = Sources.resolve(url, choice == null ? null : choice.urlEnv, env);
        if (url != null && resolved.hasPassword()) {
            err.println("warning: the source URL holds a password, which shell history and process lists can"
                    + " show; prefer --url-env VAR.");
        }
        return resolved;
    }

    /**
     * serve's form: {@code --source} or {@code --url-env} once for each source of its store, in any mix.
     */
    static final class Several {
        @ArgGroup(exclusive = true, multiplicity = "0..*")
        List<Choice> choices = new ArrayList<>();

        boolean given() {
            return !choices.isEmpty();
        }

        /** Each URL from its option or the environment; a password typed on the command line is warned about. */
        List<SourceUrl> resolve(Map<String, String> env, PrintWriter err) throws SourceException {
            List<SourceUrl> out = new ArrayList<>();
            for (Choice c : choices) {
                SourceUrl resolved = Sources.resolve(c.url, c.urlEnv, env);
                if (c.url != null && resolved.hasPassword()) {
                    err.println("warning: the source URL holds a password, which shell history and process lists can"
                            + " show; prefer --url-env VAR.");
                }
                out.add(resolved);
            }
            return out;
        }

        /** Each source given as the one-source options, so a command runs its one-source steps (and advice) per source. */
        List<SourceOptions> each() {
            return choices.stream().map(c -> {
                SourceOptions one = new SourceOptions();
                one.choice = c;
                return one;
            }).toList();
        }
    }
}
