package dev.schemabrain.source.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The relations in a view's FROM clause, by alias, for typing and expanding its output columns. */
final class ViewSources {

    /** {@code table} is null for a subquery or a table the script does not define. */
    private record Source(String alias, TableDraft table) {
    }

    private final List<Source> sources = new ArrayList<>();

    void add(String alias, TableDraft table) {
        sources.add(new Source(alias, table));
    }

    /** The type of {@code qualifier.column} (qualifier may be null) when exactly one source has it. */
    String typeOf(String qualifier, String column) {
        String type = null;
        int matches = 0;
        for (Source source : sources) {
            if (source.table() != null && (qualifier == null || qualifier.equalsIgnoreCase(source.alias()))) {
                Optional<ColumnDraft> match = source.table().column(column);
                if (match.isPresent()) {
                    type = match.get().dataType;
                    matches++;
                }
            }
        }
        return matches == 1 ? type : Names.UNKNOWN_TYPE;
    }

    /** {@code *} (qualifier null) or {@code t.*}; false when a source's columns are unknown. */
    boolean expand(String qualifier, List<ColumnDraft> out) {
        List<Source> expanded = sources.stream()
                .filter(s -> qualifier == null || qualifier.equalsIgnoreCase(s.alias())).toList();
        if (expanded.isEmpty() || expanded.stream().anyMatch(s -> s.table() == null)) {
            return false;
        }
        for (Source source : expanded) {
            source.table().columns.forEach(c -> out.add(new ColumnDraft(c.name, c.dataType)));
        }
        return true;
    }
}
