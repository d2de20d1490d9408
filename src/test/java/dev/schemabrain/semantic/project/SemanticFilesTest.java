package dev.schemabrain.semantic.project;

import dev.schemabrain.error.SemanticProjectException;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.semantic.model.Aggregation;
import dev.schemabrain.semantic.model.Bridge;
import dev.schemabrain.semantic.model.Cardinality;
import dev.schemabrain.semantic.model.ColumnPair;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Filter;
import dev.schemabrain.semantic.model.FilterOp;
import dev.schemabrain.semantic.model.Join;
import dev.schemabrain.semantic.model.Measure;
import dev.schemabrain.semantic.model.Metric;
import dev.schemabrain.semantic.model.Origin;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.semantic.model.TimeGrain;
import dev.schemabrain.semantic.project.Format;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a project's files refuses every malformed or hostile file with one sentence naming file, key and line. */
class SemanticFilesTest {

    @TempDir
    Path dir;

    private SemanticProjectException refused(String relative, byte[] content) throws Exception {
        Path file = dir.resolve("project").resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        SemanticProjectException e = assertThrows(SemanticProjectException.class, () -> SemanticProject.read(dir.resolve("project")));
        assertTrue(e.getMessage().endsWith("."), "one sentence: " + e.getMessage());
        assertFalse(e.getMessage().chars().anyMatch(Character::isISOControl), "one line, nothing unprintable: " + e.getMessage());
        return e;
    }

    private SemanticProjectException refused(String relative, String yaml) throws Exception {
        return refused(relative, yaml.getBytes(StandardCharsets.UTF_8));
    }

    /** The head of a valid metric file, for cases about the keys after it. */
    /** An entity file up to its one segment's name, the rest of the segment to follow. */
    private static final String SEGMENT_PAID = """
            version: 1
            name: x
            table: main.users
            identity: [id]
            segments:
              - name: paid
            """;

    private static final String COUNT_METRIC = """
            version: 1
            name: m
            entity: users
            measure: {agg: count}
            """;

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("entities/x.yaml", """
                        version: 1
                        name: x
                        tabel: main.users
                        identity: [id]
                        """, "entities/x.yaml:3: 'tabel' is not a known key; the keys are description, group, identity, name, origin, segments, table, validation_state, version."),
                Arguments.of("joins/j.yaml", """
                        version: 2
                        name: j
                        """, "joins/j.yaml:1: 'version' must be 1 (the first key of every file)."),
                Arguments.of("metrics/m.yaml", """
                        version: 1
                        name: m
                        entity: users
                        measure: {agg: median, column: id}
                        """, "metrics/m.yaml:4: 'measure.agg' is 'median'; use one of sum, count, count_distinct, avg, min, max."),
                Arguments.of("metrics/m.yaml", COUNT_METRIC + """
                        filters:
                          - {column: users.status, op: eq, value: active}
                          - {colum: users.status, op: eq, value: active}
                        """, "metrics/m.yaml:7: 'filters[1].colum' is not a known key; the keys are column, op, other_column, value."),
                Arguments.of("metrics/m.yaml", COUNT_METRIC + """
                        time_grains: [month, fortnight]
                        """, "metrics/m.yaml:5: 'time_grains[1]' is 'fortnight'; use one of day, week, month, quarter, year."),
                Arguments.of("metrics/m.yaml", COUNT_METRIC + """
                        filters:
                          - column: users.status
                            op: eq
                            value: {a: 1}
                        """, "metrics/m.yaml:8: 'filters[0].value' must be a value or a list of values."),
                Arguments.of("metrics/m.yaml", """
                        version: 1
                        name: m
                        entity: users
                        measure:
                          agg: sum
                          column: amount
                          expression: amount * 2
                        """, "metrics/m.yaml:7: 'measure.expression' cannot stand beside 'column'; give one of them."),
                Arguments.of("entities/x.yaml", """
                        version: 1
                        name: x
                        identity: [id]
                        """, "entities/x.yaml:1: 'table' is required."),
                Arguments.of("entities/x.yaml", """
                        version: 1
                        name: [a, b]
                        table: main.users
                        identity: [id]
                        """, "entities/x.yaml:2: 'name' must be a single value, not a list or a mapping."),
                Arguments.of("joins/j.yaml", """
                        version: 1
                        name: j
                        source_entity: a
                        target_entity: b
                        "on": [{source: id, target: a_id}]
                        through_on: [{source: id, target: b_id}]
                        cardinality: many_to_many
                        """, "joins/j.yaml:6: 'through_on' needs 'through', the link table."),
                Arguments.of("entities/x.yaml", """
                        version: 1
                        name: x
                        table: main.users
                        name: y
                        identity: [id]
                        """, "entities/x.yaml:4: 'name' is given twice (first on line 2); keep one of them."),
                Arguments.of("entities/x.yaml", "- version: 1\n", "entities/x.yaml:1: the file must be a mapping with the keys version, name, description, table, identity, group, segments, origin, validation_state."),
                Arguments.of("metrics/m.yaml", """
                        version: 1
                        name: m
                        entity: users
                        measure: sum
                        """, "metrics/m.yaml:4: 'measure' must be a mapping with the keys agg, column, expression, non_additive."),
                Arguments.of("metrics/m.yaml", COUNT_METRIC + """
                        filters: [users.status]
                        """, "metrics/m.yaml:5: 'filters[0]' must be a mapping with the keys column, op, value, other_column."),
                Arguments.of("entities/x.yaml", SEGMENT_PAID + """
                            filters: [{column: x.status, op: eq, value: paid}]
                            origin: heuristic
                        """, "entities/x.yaml:8: 'segments[0].origin' is 'heuristic'; a segment's origin is observed_in_query_log or absent."),
                Arguments.of("entities/x.yaml", SEGMENT_PAID + """
                            default: true
                            filters: [{column: x.status, op: eq, value: paid}]
                            origin: observed_in_query_log
                        """, "entities/x.yaml:7: 'segments[0].default' cannot be true on a segment observed in the query log;"
                        + " remove 'origin' and 'observed' to make it yours and the default."),
                Arguments.of("entities/x.yaml", "# nothing yet\n", "entities/x.yaml: the file is empty; it needs 'version: 1' and the object's keys."),
                Arguments.of("entities/x.yaml", """
                        version: 1
                        name: x
                        table: main.users
                        identity: [id]
                        ---
                        version: 1
                        """, "entities/x.yaml:6: the file holds a second document; a file holds one object, move it to a file of its own."));
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void aMalformedFileIsRefusedNamingFileKeyAndLine(String relative, String yaml, String message) throws Exception {
        assertEquals(message, refused(relative, yaml).getMessage());
    }

    /** Every kind of value a file can hold, written and read back. */
    static SemanticModel everyShape() {
        return new SemanticModel(
                List.of(new Entity("orders", "One order", QualifiedName.of("main", "orders"), List.of("id", "line"), "sales", Origin.AUTHORED)),
                List.of(new Join("orders_tags", "orders", "tags", List.of(),
                        new Bridge(QualifiedName.of("main", "order_tags"), List.of(new ColumnPair("id", "order_id")),
                                List.of(new ColumnPair("tag_id", "id"))), Cardinality.MANY_TO_MANY, Origin.AUTHORED)),
                List.of(new Metric("net", null, "orders", new Measure(Aggregation.SUM, null, "total - tax"), "orders.placed_at",
                        List.of(TimeGrain.MONTH, TimeGrain.YEAR),
                        List.of(new Filter("orders.status", FilterOp.NOT_IN, List.of("void", 3L)),
                                new Filter("orders.total", FilterOp.GT, 1.5),
                                new Filter("orders.paid", FilterOp.EQ, true),
                                new Filter("orders.note", FilterOp.IS_NULL, null)), Origin.AUTHORED)));
    }

    @Test
    void everyShapeIsWrittenAsBeforeAndReadsBackTheSame() throws Exception {
        SemanticModel model = everyShape();
        SemanticProject.write(dir.resolve("out"), model);
        // The text export wrote before the files were bound to records; a change here changes users' files.
        assertEquals("""
                version: 1
                name: net
                entity: orders
                measure:
                  agg: sum
                  expression: total - tax
                time_dimension: orders.placed_at
                time_grains:
                - month
                - year
                filters:
                - column: orders.status
                  op: not_in
                  value:
                  - void
                  - 3
                - column: orders.total
                  op: gt
                  value: 1.5
                - column: orders.paid
                  op: eq
                  value: true
                - column: orders.note
                  op: is_null
                origin: manually_authored
                validation_state: applied
                """, Files.readString(dir.resolve("out/metrics/net.yaml")));
        assertEquals("""
                version: 1
                name: orders_tags
                source_entity: orders
                target_entity: tags
                "on":
                - source: id
                  target: order_id
                through: main.order_tags
                through_on:
                - source: tag_id
                  target: id
                cardinality: many_to_many
                origin: manually_authored
                validation_state: applied
                """, Files.readString(dir.resolve("out/joins/orders_tags.yaml")));
        assertEquals(model, SemanticProject.read(dir.resolve("out")).model());
    }

    @Test
    void invalidYamlNamesTheLine() throws Exception {
        assertEquals("metrics/bad.yaml:3: not valid YAML (expected ',' or ']', but got <stream end>); fix the syntax there.",
                refused("metrics/bad.yaml", "version: 1\nname: [m\n").getMessage());
    }

    @Test
    void tabsForIndentationAreInvalidYamlWithTheLine() throws Exception {
        assertEquals("metrics/m.yaml:3: not valid YAML (a tab where YAML allows only spaces; indent with spaces); fix the syntax there.",
                refused("metrics/m.yaml", "version: 1\nmeasure:\n\tagg: count\n").getMessage());
    }

    @Test
    void aKeyWithAControlCharacterIsRefusedOnOneLine() throws Exception {
        assertEquals("entities/x.yaml:2: not valid YAML (the character U+0007 is not allowed); fix the syntax there.",
                refused("entities/x.yaml", "version: 1\nna\u0007me: x\n").getMessage());
    }

    @Test
    void aFileThatIsNotUtf8IsRefused() throws Exception {
        byte[] latin1 = "version: 1\nname: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("entities/x.yaml: the file is not UTF-8 text; save it as UTF-8.", refused("entities/x.yaml", latin1).getMessage());
    }

    @Test
    void aHugeFileIsRefusedBeforeParsing() throws Exception {
        String huge = "version: 1\n" + "# padding\n".repeat(120_000);
        assertEquals("entities/x.yaml: the file is over 1 MiB; it should hold one object of a few hundred bytes, so split or shorten it.",
                refused("entities/x.yaml", huge).getMessage());
    }

    @Test
    void deepNestingIsRefusedWhereItStarts() throws Exception {
        String deep = "version: 1\nname: x\nfilters: " + "[".repeat(40) + "]".repeat(40) + "\n";
        assertEquals("metrics/m.yaml:3: 'filters[0][0][0][0][0][0][0]' nests deeper than 8 levels, where an object needs 4; flatten it.",
                refused("metrics/m.yaml", deep).getMessage());
    }

    @Test
    void aBillionLaughsBombIsRefusedAtItsFirstAnchor() throws Exception {
        StringBuilder bomb = new StringBuilder("version: 1\nname: x\nlol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            bomb.append("lol").append(i).append(": &a").append(i).append(" [").append(("*a" + (i - 1) + ", ").repeat(8))
                    .append("*a").append(i - 1).append("]\n");
        }
        assertEquals("entities/x.yaml:3: 'lol0' has an anchor (&a0); anchors and aliases are not supported, remove it.",
                refused("entities/x.yaml", bomb.toString()).getMessage());
    }

    @Test
    void anAliasIsRefused() throws Exception {
        assertEquals("entities/x.yaml:3: 'table' is an alias (*t); anchors and aliases are not supported, write the value out.",
                refused("entities/x.yaml", "version: 1\nname: x\ntable: *t\nidentity: [id]\n").getMessage());
    }

    /** Counts its instances: a YAML tag naming it must not make one. */
    public static final class Canary {
        static final AtomicInteger MADE = new AtomicInteger();

        public Canary() {
            MADE.incrementAndGet();
        }
    }

    @Test
    void aJavaTagInstantiatesNothing() throws Exception {
        String message = refused("entities/x.yaml", "version: 1\nname: !!dev.schemabrain.semantic.project.SemanticFilesTest$Canary {}\n").getMessage();
        assertTrue(message.startsWith("entities/x.yaml:2: 'name' has the tag "), message);
        assertEquals(0, Canary.MADE.get());
    }

    /** The query-log marker of a segment: kept from the store, dropped from a file (apply keeps the store's). */
    @Test
    void anObservedSegmentKeepsItsMarkerInTheStoreAndLosesItInAFile() throws Exception {
        Segment observed = new Segment("status_paid", "Where x.status = paid", List.of(new Filter("x.status", FilterOp.EQ, "paid")),
                false, new Segment.Observed(3, 9, "2026-11-26T12:00:00Z"));
        Entity e = new Entity("x", null, QualifiedName.of("main", "users"), List.of("id"), null, Origin.HEURISTIC_DRAFT, List.of(observed));
        String json = SemanticCodec.encode(e).toString();
        assertEquals(observed, SemanticCodec.decodeEntity(json, "the store's entity x", Format.JSON, Origin.HEURISTIC_DRAFT)
                .segment("status_paid").orElseThrow());
        String yaml = SemanticFileReader.YAML.writeValueAsString(SemanticCodec.encode(e));
        assertTrue(yaml.contains("origin: \"observed_in_query_log\"") || yaml.contains("origin: observed_in_query_log"), yaml);
        Segment applied = SemanticCodec.decodeEntity(yaml, "entities/x.yaml", Format.YAML, Origin.AUTHORED).segment("status_paid").orElseThrow();
        assertNull(applied.observed());
        assertEquals(observed.filters(), applied.filters());
    }

    @Test
    void aStoredRowIsReadAsJsonWithTheSameChecksAndNoLine() {
        SemanticProjectException e = assertThrows(SemanticProjectException.class, () -> SemanticCodec.decodeEntity(
                "{\"version\":1,\"name\":\"x\",\"table\":\"main.users\",\"identity\":[\"id\"],\"colour\":\"red\"}",
                "the store's entity x", Format.JSON, Origin.AUTHORED));
        assertEquals("the store's entity x: 'colour' is not a known key; the keys are description, group, identity, name, origin, segments, table, validation_state, version.",
                e.getMessage());
    }
}
