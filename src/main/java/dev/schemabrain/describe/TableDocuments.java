package dev.schemabrain.describe;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;

/**
 * What retrieval needs of one table: the descriptions shown to agents and the texts that are
 * embedded and indexed.
 *
 * @param tableText    the text embedded for the table (its sentence, plus its comment)
 * @param lexicalText  the text BM25 indexes for the table (table and every column sentence, comments, samples)
 * @param columns      per column, in column order
 */
public record TableDocuments(QualifiedName table, Description description, String tableText, String lexicalText,
                             List<ColumnDocument> columns) {

    public TableDocuments {
        columns = List.copyOf(columns);
    }

    /**
     * @param text the text embedded for the column: the table's and the column's words, plus its comment
     */
    public record ColumnDocument(String column, Description description, String text) {
    }
}
