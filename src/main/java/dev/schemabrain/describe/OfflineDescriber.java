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
 * Describes every table and column without a network or a key: one sentence each from
 * names (words split, abbreviations expanded), types, keys, foreign-key targets, junction notes and
 * sample values, and the database's own comments, which win where they exist. A pure function of the
 * catalog, so re-running it costs nothing and its output can be compared to decide what to re-embed.
 */
public final class OfflineDescriber {

    /** Bumped whenever the sentences change, so stored descriptions are redone. */
    public static final String VERSION = "offline-3";
    private static final int MAX_EXAMPLES = 3;
    private static final int MAX_RAW_NAME = 64;

    private final Words words;
    private final Nouns nouns;

    public OfflineDescriber(Words words) {
        this.words = words;
        this.nouns = new Nouns(words.vocabulary());
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
        String tablePhrase = phrase(t.name().table());
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

    /**
     * The identifier's words, a word repeated at once said once ({@code customer_customer_demo}); a name with no
     * ASCII word ({@code 名前}) is kept as written, without control or format characters and at most 64 long.
     */
    private String phrase(String identifier) {
        List<String> out = new ArrayList<>();
        for (String w : words.of(identifier)) {
            if (out.isEmpty() || !out.get(out.size() - 1).equals(w)) {
                out.add(w);
            }
        }
        if (out.isEmpty()) {
            String kept = identifier.codePoints().filter(cp -> !Character.isISOControl(cp) && Character.getType(cp) != Character.FORMAT)
                    .map(cp -> Character.isWhitespace(cp) ? ' ' : cp).limit(MAX_RAW_NAME)
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
            return kept.isEmpty() ? "unnamed" : kept.replaceAll(" +", " ");
        }
        return String.join(" ", out);
    }

    /** "order" for orders, "staff record" for staff: what "each" and "a" can stand before. */
    private String one(String tablePhrase) {
        return nouns.countable(nouns.singular(tablePhrase));
    }

    private String tableSentence(Table t, String phrase, Set<QualifiedName> referencedBy) {
        List<String> targetPhrases = t.foreignKeys().stream().map(ForeignKey::target).filter(n -> !n.equals(t.name()))
                .map(n -> phrase(n.table())).distinct().toList();
        String noun = t.kind() == TableKind.VIEW || t.kind() == TableKind.MATERIALIZED_VIEW ? "view" : "table";
        StringBuilder s = new StringBuilder("The ").append(phrase).append(' ').append(noun);
        if (t.isJunction()) {
            s.append(" links ").append(String.join(" and ", targetPhrases))
                    .append(" (many-to-many); joining through it multiplies rows.");
        } else {
            String columns = t.columns().stream()
                    .filter(c -> !(t.primaryKey().size() == 1 && t.isPrimaryKey(c.name())))
                    .map(c -> phrase(c.name())).distinct().collect(Collectors.joining(", "));
            if (!columns.isEmpty()) {
                s.append(" records ").append(columns);
            }
            s.append('.');
            if (!targetPhrases.isEmpty()) {
                s.append(" Each ").append(one(phrase)).append(" belongs to ")
                        .append(Nouns.list(targetPhrases.stream().map(p -> Nouns.withArticle(one(p))).distinct().toList())).append('.');
            }
        }
        List<String> incoming = referencedBy.stream().filter(n -> !n.equals(t.name()))
                .map(n -> phrase(n.table())).distinct().toList();
        if (!incoming.isEmpty()) {
            s.append(" Referenced by ").append(String.join(", ", incoming)).append('.');
        }
        return s.toString();
    }

    private String columnSentence(Table t, Column c, String tablePhrase, Map<QualifiedName, Table> byName) {
        String phrase = phrase(c.name());
        List<String> parts = List.of(phrase.split(" "));
        String owner = nouns.singular(tablePhrase);
        Optional<ForeignKey> fk = t.foreignKeys().stream().filter(k -> k.columns().contains(c.name())).findFirst();
        String last = parts.get(parts.size() - 1);
        boolean identifier = last.equals("id") || last.equals("code") || last.equals("key");
        StringBuilder s = new StringBuilder();
        if (t.primaryKey().equals(List.of(c.name())) && fk.isEmpty()) {
            s.append("The ").append(phrase).append(" uniquely identifies each ").append(one(tablePhrase));
        } else if (fk.isPresent()) {
            ForeignKey k = fk.get();
            String targetColumn = k.targetColumns().get(k.columns().indexOf(c.name()));
            Table target = byName.get(k.target());
            s.append("The ").append(phrase).append(" of the ").append(owner).append("; refers to ")
                    .append(Nouns.withArticle(one(phrase(target == null ? k.target().table() : target.name().table()))))
                    .append(" (").append(phrase(targetColumn)).append(')');
            if (t.isJunction() && t.isPrimaryKey(c.name())) {
                s.append("; part of a link table, joining through it multiplies rows");
            }
        } else if (identifier) {
            s.append("The ").append(phrase).append(" of the ").append(owner);
        } else {
            s.append(ColumnPhrases.sentence(parts, owner, c));
        }
        List<String> examples = c.samples().stream().filter(v -> !v.startsWith("<") && !v.isBlank()).limit(MAX_EXAMPLES).toList();
        if (!examples.isEmpty() && TypeClass.of(c) == TypeClass.TEXT) {
            s.append("; for example ").append(String.join(", ", examples));
        }
        return s.append('.').toString();
    }

    private static void append(StringBuilder s, String text) {
        if (text != null && !text.isBlank()) {
            s.append(' ').append(text.strip());
        }
    }
}
