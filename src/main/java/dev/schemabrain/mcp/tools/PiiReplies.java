package dev.schemabrain.mcp.tools;

import dev.schemabrain.catalog.Table;
import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.pii.PiiCategory;
import dev.schemabrain.pii.PiiTag;

import java.util.Set;

/** How a column's PII tag shows in answers: its level and categories, and redaction when the server blocks it. */
final class PiiReplies {

    private PiiReplies() {
    }

    /** The column's tag as the tools see it. */
    static PiiTag tag(ServedCatalog served, QualifiedName table, String column) {
        return served.pii().tag(table, column);
    }

    /** The categories of the column the server blocks; empty when it may be described in full. */
    static Set<PiiCategory> blocked(ServedCatalog served, PiiTag tag) {
        return tag.blockedBy(served.blockList().categories());
    }

    /** Adds {@code pii_sensitivity} and {@code pii_categories}, and {@code redacted} when the column is blocked. */
    static ObjectNode annotate(ObjectNode column, ServedCatalog served, PiiTag tag) {
        column.put("pii_sensitivity", tag.sensitivity().wireName());
        column.set("pii_categories", Replies.strings(tag.categoryNames()));
        if (!blocked(served, tag).isEmpty()) {
            column.put("redacted", true);
        }
        return column;
    }

    /** The description to show: the real one, or a redaction note naming only the blocked categories. */
    static String description(ServedCatalog served, PiiTag tag, String description) {
        Set<PiiCategory> blocked = blocked(served, tag);
        if (blocked.isEmpty()) {
            return description;
        }
        return "Redacted: this column holds " + String.join(", ", blocked.stream().sorted().map(PiiCategory::wireName).toList())
                + " data, which this server blocks; it cannot be described, grouped, filtered or aggregated.";
    }

    /**
     * A search hit's {@code best_column} (shown as {@code shownName}), its description (redacted when blocked)
     * and its PII tag as {@code best_column_pii_sensitivity} and {@code best_column_pii_categories}.
     */
    static void bestColumn(ObjectNode row, ServedCatalog served, TableHit hit, String shownName) {
        row.put("best_column", shownName);
        if (hit.bestColumn() == null) {
            row.putNull("best_column_description");
            return;
        }
        PiiTag tag = tag(served, hit.table().name(), hit.bestColumn().name());
        row.put("best_column_description", description(served, tag, hit.bestColumnDescription()));
        row.put("best_column_pii_sensitivity", tag.sensitivity().wireName());
        row.set("best_column_pii_categories", Replies.strings(tag.categoryNames()));
    }

    /** The columns of {@code table} that carry a tag, as {@code [{column, sensitivity, categories}]}. */
    static ArrayNode taggedColumns(ServedCatalog served, Table table) {
        ArrayNode out = Replies.JSON.createArrayNode();
        for (var c : table.columns()) {
            PiiTag tag = tag(served, table.name(), c.name());
            if (tag.tagged()) {
                ObjectNode row = out.addObject().put("column", c.name());
                annotate(row, served, tag);
            }
        }
        return out;
    }
}
