package dev.schemabrain.describe;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.catalog.TypeClass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Describes every table and column without a network or a key (SPEC §3): one sentence each from
 * names (words split, abbreviations expanded), types, keys, foreign-key targets, junction notes and
 * sample values, and the database's own comments, which win where they exist. A pure function of the
 * catalog, so re-running it costs nothing and its output can be compared to decide what to re-embed.
 */
public final class OfflineDescriber {

    /** Bumped whenever the sentences change, so stored descriptions are redone. */
    public static final String VERSION = "offline-2";
    private static final int MAX_EXAMPLES = 3;

    private final Words words;

    public OfflineDescriber(Words words) {
        this.words = words;
    }

    public List<TableDocuments> describe(Catalog catalog) {
        Map<QualifiedName, Table> byName = catalog.byName();
        Map<QualifiedName, Set<QualifiedName>> referencedBy = new HashMap<>();
        for (Table t : catalog.tables()) {
            for (ForeignKey fk : t.foreignKeys()) {
                referencedBy.computeIfAbsent(fk.target(), k -> new LinkedHashSet<>()).add(t.name());
            }
        }
        List<TableDocuments> documents = new ArrayList<>(catalog.tables().size());
        for (Table t : catalog.tables()) {
            documents.add(describe(t, byName, referencedBy.getOrDefault(t.name(), Set.of())));
        }
        return documents;
    }

    private TableDocuments describe(Table t, Map<QualifiedName, Table> byName, Set<QualifiedName> referencedBy) {
        String tablePhrase = words.phrase(t.name().table());
        String sentence = tableSentence(t, tablePhrase, referencedBy);
        StringBuilder lexical = new StringBuilder(sentence);
        append(lexical, t.comment());
        List<TableDocuments.ColumnDocument> columns = new ArrayList<>();
        for (Column c : t.columns()) {
            String columnSentence = columnSentence(t, c, tablePhrase, byName);
            lexical.append(' ').append(columnSentence);
            append(lexical, c.comment());
            String text = tablePhrase + " " + words.phrase(c.name()) + (c.comment() == null ? "" : ": " + c.comment());
            columns.add(new TableDocuments.ColumnDocument(c.name(), described(c.comment(), columnSentence), text));
        }
        String tableText = t.comment() == null ? sentence : sentence + " " + t.comment();
        return new TableDocuments(t.name(), described(t.comment(), sentence), tableText, lexical.toString(), columns);
    }

    private static Description described(String comment, String heuristic) {
        return comment != null && !comment.isBlank()
                ? new Description(comment.strip(), DescriptionOrigin.DB_COMMENT)
                : new Description(heuristic, DescriptionOrigin.HEURISTIC);
    }

    private String tableSentence(Table t, String phrase, Set<QualifiedName> referencedBy) {
        List<String> targets = t.foreignKeys().stream().map(ForeignKey::target).filter(n -> !n.equals(t.name()))
                .map(n -> words.phrase(n.table())).distinct().toList();
        String noun = t.kind() == TableKind.VIEW || t.kind() == TableKind.MATERIALIZED_VIEW ? "view" : "table";
        StringBuilder s = new StringBuilder("The ").append(phrase).append(' ').append(noun);
        if (t.isJunction()) {
            s.append(" links ").append(String.join(" and ", targets))
                    .append(" (many-to-many); joining through it multiplies rows.");
        } else {
            String columns = t.columns().stream()
                    .filter(c -> !(t.primaryKey().size() == 1 && t.isPrimaryKey(c.name())))
                    .map(c -> words.phrase(c.name())).distinct().collect(Collectors.joining(", "));
            if (!columns.isEmpty()) {
                s.append(" records ").append(columns);
            }
            s.append('.');
            if (!targets.isEmpty()) {
                s.append(" Each ").append(phrase).append(" belongs to a ").append(String.join(" and a ", targets)).append('.');
            }
        }
        List<String> incoming = referencedBy.stream().filter(n -> !n.equals(t.name()))
                .map(n -> words.phrase(n.table())).distinct().toList();
        if (!incoming.isEmpty()) {
            s.append(" Referenced by ").append(String.join(", ", incoming)).append('.');
        }
        return s.toString();
    }

    private String columnSentence(Table t, Column c, String tablePhrase, Map<QualifiedName, Table> byName) {
        String phrase = words.phrase(c.name());
        Optional<ForeignKey> fk = t.foreignKeys().stream().filter(k -> k.columns().contains(c.name())).findFirst();
        List<String> pieces = Words.pieces(c.name());
        String last = pieces.isEmpty() ? "" : pieces.get(pieces.size() - 1);
        boolean identifier = last.equals("id") || last.equals("code") || last.equals("key");
        StringBuilder s = new StringBuilder("The ").append(phrase);
        if (t.primaryKey().equals(List.of(c.name())) && fk.isEmpty()) {
            s.append(" uniquely identifies each ").append(tablePhrase).append(" record");
        } else {
            s.append(" of the ").append(tablePhrase);
            if (!identifier) {
                s.append(", ").append(typePhrase(c.dataType()));
            }
        }
        if (fk.isPresent()) {
            ForeignKey k = fk.get();
            String targetColumn = k.targetColumns().get(k.columns().indexOf(c.name()));
            Table target = byName.get(k.target());
            s.append("; refers to the ").append(words.phrase(target == null ? k.target().table() : target.name().table()))
                    .append(" (").append(words.phrase(targetColumn)).append(')');
            if (t.isJunction() && t.isPrimaryKey(c.name())) {
                s.append("; part of a link table, joining through it multiplies rows");
            }
        }
        List<String> examples = c.samples().stream().filter(v -> !v.startsWith("<") && !v.isBlank()).limit(MAX_EXAMPLES).toList();
        if (!examples.isEmpty() && typePhrase(c.dataType()).equals("text")) {
            s.append("; for example ").append(String.join(", ", examples));
        }
        return s.append('.').toString();
    }

    static String typePhrase(String type) {
        return switch (TypeClass.of(type)) {
            case TEMPORAL -> "a date or time";
            case BOOLEAN -> "a yes/no flag";
            case NUMBER -> "a number";
            case TEXT -> "text";
            case OTHER -> "a value";
        };
    }

    private static void append(StringBuilder s, String text) {
        if (text != null && !text.isBlank()) {
            s.append(' ').append(text.strip());
        }
    }
}
