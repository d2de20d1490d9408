package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.SemanticModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a metric over an entity can be grouped by without counting a row twice: the categorical (ENUM, SET, CHECK
 * list), low-cardinality text, boolean and date columns of the entity and of the entities its rows belong to ({@link Parents}: an order's customer's
 * country). Text counts as low-cardinality when its name says it is a category (country, status, type …) or when
 * its table is small (a lookup such as genre, or Northwind's nine employees), and never when it is a key, unique,
 * or free text (a description, an address, an e-mail). A listing for agents: get_metric accepts any entity.column.
 */
public final class Dimensions {

    /** A table this small has few distinct values in any column: its names are labels. */
    static final long SMALL_TABLE_ROWS = 1000;
    /** Enough to choose from without flooding an answer. */
    static final int MAX_DIMENSIONS = 60;

    private static final Pattern CATEGORY = Pattern.compile(
            "(^|_)(country|countries|city|region|state|province|district|territory|status|state|type|kind|category|class"
                    + "|tier|plan|role|priority|industry|currency|brand|rating|genre|gender|language|segment|channel|source"
                    + "|stage|level|group|department|dept|method|mode|interval|title|format|medium|carrier|via)(_|$)");
    private static final Pattern LABEL = Pattern.compile("(^|_)(name|title|label)(_|$)");
    private static final Pattern FREE_TEXT = Pattern.compile(
            "(^|_)(description|desc|comment|comments|notes|note|body|text|message|content|address|street|line1|line2|path"
                    + "|url|uri|agent|email|mail|phone|fax|password|hash|token|secret|subject|fulltext|picture|photo|image"
                    + "|homepage|uuid|guid|postal|zip|postcode|number|embedding)(_|$)");

    /** The kinds of column a metric is grouped by. */
    public enum Kind {
        TEXT, BOOLEAN, DATE,
        /** A column whose type lists its values (an ENUM, a SET, a CHECK list): a category whatever its name. */
        CATEGORICAL;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One groupable column.
     *
     * @param joins the joins walked from the metric's entity to the column's (empty for its own)
     */
    public record Dimension(String entity, QualifiedName table, String column, Kind kind, List<String> joins) {
        public Dimension {
            joins = List.copyOf(joins);
        }

        public String reference() {
            return entity + "." + column;
        }
    }

    private Dimensions() {
    }

    /** The dimensions of {@code entity}: its own columns first, then nearer entities' before farther ones'. */
    public static List<Dimension> of(Catalog catalog, SemanticModel model, String entity) {
        List<Dimension> out = new ArrayList<>();
        for (Parents.Reached r : Parents.of(model, entity)) {
            if (r.ambiguous()) {
                continue;   // two equally short ways there: get_metric would need via
            }
            Optional<Table> table = model.entity(r.entity()).map(Entity::table).flatMap(catalog::table);
            if (table.isEmpty()) {
                continue;
            }
            for (Column c : table.get().columns()) {
                Optional<Kind> kind = kind(table.get(), c);
                if (kind.isPresent() && out.size() < MAX_DIMENSIONS) {
                    out.add(new Dimension(r.entity(), table.get().name(), c.name(), kind.get(), r.joins()));
                }
            }
        }
        return List.copyOf(out);
    }

    static Optional<Kind> kind(Table t, Column c) {
        String name = Identifiers.toSnakeCase(c.name()).toLowerCase(Locale.ROOT);
        boolean key = t.isPrimaryKey(c.name()) || t.foreignKeys().stream().anyMatch(fk -> fk.columns().contains(c.name()));
        if (key) {
            return Optional.empty();
        }
        return switch (TypeClass.of(c)) {
            case BOOLEAN -> Optional.of(Kind.BOOLEAN);
            case CATEGORICAL -> Optional.of(Kind.CATEGORICAL);
            case TEMPORAL -> EventTime.isBookkeeping(c) ? Optional.empty() : Optional.of(Kind.DATE);
            case TEXT -> lowCardinality(t, c, name) ? Optional.of(Kind.TEXT) : Optional.empty();
            default -> Optional.empty();
        };
    }

    private static boolean lowCardinality(Table t, Column c, String name) {
        if (FREE_TEXT.matcher(name).find() || t.isUnique(List.of(c.name())) && !small(t)) {
            return false;
        }
        return CATEGORY.matcher(name).find() || small(t) && LABEL.matcher(name).find();
    }

    private static boolean small(Table t) {
        return t.rowEstimate() != null && t.rowEstimate() >= 0 && t.rowEstimate() <= SMALL_TABLE_ROWS;
    }
}
