package dev.schemabrain.source;

import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.engine.Engines;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.source.ddl.DdlSource;
import dev.schemabrain.source.spider.SpiderSource;

import java.util.Map;

/** Opens a source URL: a file read offline (ddl, spider), else through its registered engine. */
public final class Sources {

    private Sources() {
    }

    public static SchemaSource open(SourceUrl url) {
        if (url.kind().equals(SourceKind.DDL)) {
            return new DdlSource(url);
        }
        if (url.kind().equals(SourceKind.SPIDER)) {
            return new SpiderSource(url);
        }
        return Engines.of(url.kind()).orElseThrow().open(url);
    }

    /**
     * Resolves {@code --source URL} or {@code --url-env VAR} (exactly one) into a parsed URL.
     * The environment variable (read from {@code env}) is preferred: the URL then never appears in shell history or
     * process lists.
     */
    public static SourceUrl resolve(String url, String urlEnv, Map<String, String> env) throws SourceException {
        if (url != null && urlEnv != null) {
            throw new SourceException("Give either --source or --url-env, not both.");
        }
        if (urlEnv != null) {
            String value = env.get(urlEnv);
            if (value == null || value.isBlank()) {
                throw new SourceException("The environment variable " + urlEnv
                        + " is not set or empty; export it with the source URL, or pass --source URL.");
            }
            return SourceUrl.parse(value);
        }
        if (url == null) {
            throw new SourceException("No source was given; pass --source URL or --url-env VAR.");
        }
        return SourceUrl.parse(url);
    }
}
