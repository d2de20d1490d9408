package dev.schemabrain.mcp.tools;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.pii.PiiTag;

/**
 * A column's declared values in describe_entity and describe_column: {@code "domain": "enum"} and
 * {@code "values": [...]}, so an agent writes a filter the compiler accepts. A PII-tagged column's values are
 * withheld as its samples are.
 */
final class DomainReplies {

    private DomainReplies() {
    }

    static ObjectNode annotate(ObjectNode node, Column column, PiiTag tag) {
        Domain d = column.domain();
        if (d == null) {
            return node;
        }
        node.put("domain", d.kind().wireName());
        if (d.kind() == Domain.Kind.BOOLEAN) {
            return node;
        }
        if (tag.tagged() || !d.listed()) {
            node.put("values_withheld", true);
        } else {
            node.set("values", Replies.strings(d.values()));
        }
        return node;
    }
}
