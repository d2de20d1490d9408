package dev.schemabrain.pii;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.InjectionScreen;
import dev.schemabrain.catalog.SamplePolicy;
import dev.schemabrain.catalog.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the channels beyond the tags may carry of a column: applied at index time before anything is
 * stored, described, embedded or sent to a model, and again when a store is served (a store written before this
 * rule still holds what it withheld).
 * <ul>
 * <li>comments of tables and columns are redacted as samples are ({@code <email>}, {@code <national id>}, …), and
 *     one that reads as instructions to an agent is withheld whole, as a model's description would be;</li>
 * <li>an untagged free-text column ({@link FreeText}) keeps no samples unless allowed {@code samples}, and no
 *     value-index entries unless allowed {@code value_index};</li>
 * <li>a table the subject classifier drafts as a person keeps no value-index entries for its text columns, except
 *     those with listed labels (an ENUM) or allowed {@code value_index}: the index would answer whether a person's
 *     name exists, whatever the classifier missed.</li>
 * </ul>
 * Tagged columns are already without data ({@link PiiTags#withoutTaggedSamples}); no allowance brings it back.
 */
public final class ChannelPolicy {

    private ChannelPolicy() {
    }

    public static Catalog apply(Catalog catalog, PiiTags tags) {
        List<Table> tables = new ArrayList<>(catalog.tables().size());
        for (Table t : catalog.tables()) {
            boolean person = SubjectClassifier.draft(t, tags).subjectClass() == SubjectClass.PERSON;
            List<Column> columns = new ArrayList<>(t.columns().size());
            boolean changed = false;
            for (Column c : t.columns()) {
                Column kept = column(t, c, tags, person);
                changed |= kept != c;
                columns.add(kept);
            }
            String comment = redact(t.comment());
            if (changed || !Objects.equals(comment, t.comment())) {
                t = new Table(t.name(), t.kind(), t.rowEstimate(), comment, columns, t.primaryKey(), t.foreignKeys(),
                        t.uniqueConstraints(), t.dataVersion());
            }
            tables.add(t);
        }
        return new Catalog(tables);
    }

    private static Column column(Table t, Column c, PiiTags tags, boolean person) {
        Column out = c;
        String comment = redact(c.comment());
        if (!Objects.equals(comment, c.comment())) {
            out = out.withComment(comment);
        }
        if (tags.tag(t.name(), c.name()).tagged()) {
            return out;
        }
        Set<Allowance> allowed = tags.allowances(t.name(), c.name());
        boolean freeText = FreeText.is(c);
        if (freeText && !allowed.contains(Allowance.SAMPLES) && !out.samples().isEmpty()) {
            out = out.withSamples(List.of());
        }
        boolean categorical = c.domain() != null && c.domain().listed();
        if ((freeText || person && !categorical) && !allowed.contains(Allowance.VALUE_INDEX) && !out.values().isEmpty()) {
            out = out.withValues(List.of());
        }
        return out;
    }

    /** What stands for a comment that reads as instructions: agents read comments as trusted catalog text. */
    public static final String WITHHELD = "<comment withheld: it reads as instructions, not as a description of data>";

    /** A comment as it may be kept: every identifier shape replaced by its placeholder; instructions withheld. */
    public static String redact(String comment) {
        if (comment == null || comment.isBlank()) {
            return comment;
        }
        return InjectionScreen.reason(comment).isPresent() ? WITHHELD : SamplePolicy.redactText(comment);
    }
}
