package dev.schemabrain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HTTP part both wire formats share: one JSON POST with retries. The key lives only in the headers
 * the subclass adds; no message this class builds names it.
 */
abstract class HttpProvider implements LlmProvider {

    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final URI base;
    private final Duration timeout;
    private final Backoff backoff;
    private final String key;

    /** @param key the API key, or null for a server that needs none */
    HttpProvider(String baseUrl, String key, Duration timeout, Backoff backoff) {
        this.key = key;
        String trimmed = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.base = URI.create(trimmed);
        this.timeout = timeout;
        this.backoff = backoff;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    @Override
    public String endpoint() {
        return base.getScheme() + "://" + base.getHost() + (base.getPort() < 0 ? "" : ":" + base.getPort()) + base.getPath();
    }

    String key() {
        return key;
    }

    abstract String path();

    abstract Map<String, String> headers();

    JsonNode post(Object body) throws LlmException {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new LlmException("the request could not be encoded", false);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path())).timeout(timeout)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        headers().forEach(request::header);
        String last = "no answer";
        for (int attempt = 0; attempt < backoff.attempts(); attempt++) {
            String retryAfter = null;
            try {
                HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                int status = response.statusCode();
                if (status / 100 == 2) {
                    try {
                        return JSON.readTree(response.body());
                    } catch (IOException e) {
                        throw new LlmException(endpoint() + " answered with malformed JSON", false);
                    }
                }
                last = "HTTP " + status;
                if (!Backoff.retryable(status)) {
                    throw new LlmException(endpoint() + " refused the request (" + last + ")", false);
                }
                retryAfter = response.headers().firstValue("retry-after").orElse(null);
            } catch (HttpTimeoutException e) {
                last = "no answer within " + timeout.toMillis() + " ms";
            } catch (ConnectException | UnresolvedAddressException e) {
                throw new LlmException(endpoint() + " could not be reached", true);
            } catch (IOException e) {
                if (e.getCause() instanceof ConnectException || e.getCause() instanceof UnresolvedAddressException) {
                    throw new LlmException(endpoint() + " could not be reached", true);
                }
                last = "the connection failed";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LlmException("the run was interrupted", false);
            }
            if (attempt + 1 < backoff.attempts()) {
                sleep(backoff.delay(attempt, retryAfter));
            }
        }
        throw new LlmException(endpoint() + " kept failing (" + last + " after " + backoff.attempts() + " attempts)", false);
    }

    private static void sleep(Duration d) throws LlmException {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LlmException("the run was interrupted", false);
        }
    }

    /** The record_descriptions JSON, from either format, into a reply. */
    /** @param response the whole answer, for the model id it names (both vendors put it at the top) */
    static LlmReply reply(JsonNode input, JsonNode response, long inputTokens, long outputTokens, String endpoint)
            throws LlmException {
        if (input == null || !input.isObject() || !input.path("columns").isArray()) {
            throw new LlmException(endpoint + " answered without the record_descriptions object", inputTokens, outputTokens);
        }
        Map<String, String> columns = new LinkedHashMap<>();
        for (JsonNode c : input.path("columns")) {
            if (c.path("name").isTextual() && c.path("description").isTextual()) {
                columns.putIfAbsent(c.get("name").asText(), c.get("description").asText());
            }
        }
        String table = input.path("table_description").isTextual() ? input.get("table_description").asText() : null;
        String model = response.path("model").isTextual() ? response.get("model").asText() : null;
        return new LlmReply(table, columns, model, inputTokens, outputTokens);
    }
}
