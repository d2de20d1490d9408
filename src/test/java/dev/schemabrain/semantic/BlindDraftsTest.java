package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Domain;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.source.ddl.DdlSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The drafts on schemas they were not tuned on, judged by the hand-written rule of {@link DraftVerdicts}: a ferry
 * operator (src/test/resources/blind-drafts/ferry.sql, written and scored before the drafting rules were changed)
 * and a utility metering company (utility.sql, a hold-out written after the change and scored without changing the
 * rules again), and a retail bank (bank.sql, written and scored before semi-additive snapshots were drafted). The table
 * goes to target/drafts-blind.txt.
 */
class BlindDraftsTest {

    /**
     * Drafts judged misleading or nonsensical, at most: the figures measured when the drafting rules last changed.
     * Ferry before the signals were read: 41 of 58 (37 misleading, 15 of them count_distinct twins; 4 nonsensical);
     * the utility hold-out, first scored after the change: 0 of 30; the bank before snapshots were drafted: 2 of 18
     * (its four snapshot sums missing), after: 0 of 22.
     */
    static final Map<String, Integer> MAX_BAD = Map.of("ferry", 0, "utility", 0, "bank", 0);

    /** Values an index would read for a status column without a CHECK (ferry's payments.status). */
    static final Map<String, List<String>> INDEXED = Map.of("payments.status", List.of("failed", "pending", "refunded", "succeeded"));

    private static final Pattern CREATE = Pattern.compile("CREATE TABLE (\\w+) \\((.*?)\\n\\);", Pattern.DOTALL);
    private static final Pattern CHECK_IN = Pattern.compile("\\n\\s*(\\w+)\\s[^\\n]*CHECK \\(\\1 IN \\(([^)]*)\\)\\)");

    /**
     * A blind catalog as an index run would see it once introspection fills domains: the DDL reader steps over
     * CHECK, so its IN lists are attached here as domains; ferry's payments.status gets the distinct values an index
     * reads instead (Column.values); its refunds.status gets neither, so only its name says what it is.
     */
    static Catalog blind(String schema) throws Exception {
        Path file = Path.of(BlindDraftsTest.class.getResource("/blind-drafts/" + schema + ".sql").toURI());
        Map<String, List<String>> domains = new HashMap<>();
        Matcher t = CREATE.matcher(Files.readString(file));
        while (t.find()) {
            Matcher c = CHECK_IN.matcher("\n" + t.group(2));
            while (c.find()) {
                domains.put(t.group(1) + "." + c.group(1), Arrays.stream(c.group(2).split(","))
                        .map(v -> v.strip().replace("'", "")).toList());
            }
        }
        assertFalse(domains.isEmpty(), "the CHECK lists are read");
        Catalog read;
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + file))) {
            read = source.introspect(IntrospectionOptions.fresh());
        }
        List<Table> tables = new ArrayList<>();
        for (Table table : read.tables()) {
            List<Column> columns = new ArrayList<>();
            for (Column c : table.columns()) {
                String key = table.name().table().toLowerCase(Locale.ROOT) + "." + c.name();
                if (domains.containsKey(key)) {
                    c = c.withDomain(new Domain(Domain.Kind.CHECK, null, domains.get(key)));
                } else if (schema.equals("ferry") && INDEXED.containsKey(key)) {
                    c = c.withValues(INDEXED.get(key));
                }
                columns.add(c);
            }
            tables.add(table.withColumns(columns));
        }
        return new Catalog(tables);
    }

    @Test
    void draftsOnTheBlindSchemasAreJudgedByTheWrittenRule() throws Exception {
        StringBuilder report = new StringBuilder("database\tverdict\tdraft\tmeasure\tfilters\twhy\n");
        StringBuilder totals = new StringBuilder();
        StringBuilder descriptions = new StringBuilder("\n");
        Map<String, Long> bad = new LinkedHashMap<>();
        for (String schema : List.of("ferry", "utility", "bank")) {
            SemanticModel model = new SemanticInference(n -> null).infer(blind(schema));
            List<DraftVerdicts.Judged> judged = DraftVerdicts.load("/blind-drafts/" + schema + ".yaml").judge(model);
            report.append(DraftVerdicts.table(schema, judged));
            DraftVerdicts verdicts = DraftVerdicts.load("/blind-drafts/" + schema + ".yaml");
            List<String> missing = verdicts.missing(model);
            totals.append(DraftVerdicts.total(schema, judged).strip()).append("\tlisted but not drafted ").append(missing.size())
                    .append("/").append(verdicts.metrics().size()).append(": ").append(String.join("; ", missing)).append('\n');
            model.metrics().forEach(m -> descriptions.append(m.name()).append(": ").append(m.description()).append('\n'));
            var counts = DraftVerdicts.counts(judged);
            assertEquals(0, counts.get(DraftVerdicts.Verdict.UNJUDGED), schema + ": every draft is judged:\n" + report);
            bad.put(schema, counts.get(DraftVerdicts.Verdict.MISLEADING) + counts.get(DraftVerdicts.Verdict.NONSENSICAL));
        }
        Path out = Path.of("target", "drafts-blind.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.append(totals).append(descriptions));
        System.out.print(totals);
        bad.forEach((schema, n) -> assertTrue(n <= MAX_BAD.get(schema), schema + ": " + n
                + " drafts misleading or nonsensical:\n" + report));
    }
}
