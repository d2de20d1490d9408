package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.NameSyntax;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Recovery;
import dev.schemabrain.mcp.envelope.ToolError;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Pieces every catalog tool's answers share. */
final class Replies {

    static final ObjectMapper JSON = new ObjectMapper();
    private Replies() {
    }

    static ObjectNode object() {
        return JSON.createObjectNode();
    }

    static ArrayNode strings(Collection<String> values) {
        ArrayNode array = JSON.createArrayNode();
        values.forEach(array::add);
        return array;
    }

    /** The store is missing or holds no live table. The message names no tool: a server may not serve the one it would. */
    static Envelope indexNotReady() {
        return Envelope.error(ToolError.of(ErrorKind.INDEX_NOT_READY,
                "Nothing is indexed yet: the operator must run 'schemabrain index --source URL' (or --url-env VAR) "
                        + "on this server's store; once it has, the same call can be retried.",
                Recovery.call("list_indexed_schemas", Map.of())), List.of("list_indexed_schemas"));
    }

    /** The catalog is still loading (a large one, or a slow store) past the bound a call waits: the same call, shortly. */
    static Envelope stillLoading(String tool, Map<String, Object> arguments) {
        return Envelope.notReadyYet("The catalog is still loading (a large catalog or a slow store); retry the same call"
                + " in a few seconds.", tool, arguments);
    }

    /** A search of nothing but white space: there is nothing to rank by, so it is the caller's to fix. */
    static Envelope blankQuery(String tool) {
        return Envelope.error(ToolError.of(ErrorKind.INVALID_ARGUMENT, "Invalid arguments for " + tool
                        + ": query holds only white space; describe the data in words, such as \"invoices per customer\".",
                Recovery.call(tool, Map.of("query", "invoices per customer"))), List.of(tool, "list_indexed_schemas"));
    }

    /** As much of a caller's input as is ever repeated back: enough to recognize, never a whole payload. */
    static String shown(String input) {
        return NameSyntax.excerpt(input);
    }
}
