package dev.schemabrain.semantic.model;

import dev.schemabrain.catalog.QualifiedName;

import java.util.List;

/**
 * The link table a many-to-many join walks through: source entity → {@code table} on {@code sourceOn}
 * (source column, link column), then {@code table} → target entity on {@code targetOn} (link column,
 * target column).
 */
public record Bridge(QualifiedName table, List<ColumnPair> sourceOn, List<ColumnPair> targetOn) {

    public Bridge {
        sourceOn = List.copyOf(sourceOn);
        targetOn = List.copyOf(targetOn);
        if (sourceOn.isEmpty() || targetOn.isEmpty()) {
            throw new IllegalArgumentException("a bridge through " + table + " needs columns on both sides");
        }
    }

    public Bridge reversed() {
        return new Bridge(table, targetOn.stream().map(ColumnPair::swapped).toList(),
                sourceOn.stream().map(ColumnPair::swapped).toList());
    }
}
