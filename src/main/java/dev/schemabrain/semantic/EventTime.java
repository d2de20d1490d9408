package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Identifiers;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TypeClass;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * When a table's rows happened: its date or time column named like an event (issued_at, order_date,
 * created_at) rather than a deadline or a later change (due_date, canceled_at, updated_at), else its
 * first date or time column. A birth date is never one: it describes a person, not when the row
 * happened, and it is PII. The default time axis of an entity's metrics.
 */
public final class EventTime {

    private static final Pattern EVENT = Pattern.compile(
            "(^|_)(issued|ordered|placed|invoiced|occurred|created|started|sold|date)(_|$)");
    private static final Pattern LATER = Pattern.compile(
            "(^|_)(due|end|ends|expires|expiry|canceled|cancelled|deleted|updated|resolved)(_|$)");

    private static final Pattern PERSONAL = Pattern.compile("(^|_)(birth|birthday|birthdate|dob|born)(_|$)");

    private EventTime() {
    }

    public static Optional<String> of(Table t) {
        List<Column> temporal = t.columns().stream().filter(c -> TypeClass.of(c.dataType()) == TypeClass.TEMPORAL)
                .filter(c -> !PERSONAL.matcher(Identifiers.toSnakeCase(c.name())).find()).toList();
        return temporal.stream().filter(c -> {
                    String name = c.name().toLowerCase(Locale.ROOT);
                    return EVENT.matcher(name).find() && !LATER.matcher(name).find();
                }).findFirst()
                .or(() -> temporal.stream().findFirst()).map(Column::name);
    }
}
