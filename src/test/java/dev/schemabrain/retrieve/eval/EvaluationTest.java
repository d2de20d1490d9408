package dev.schemabrain.retrieve.eval;

import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.retrieve.TableRetriever;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The retrieval metrics on rankings whose scores can be worked out by hand, and both question formats. */
class EvaluationTest {

    @TempDir
    Path dir;

    private static TableHit hit(String name) {
        String[] p = name.split("\\.");
        return new TableHit(new Table(QualifiedName.of(p[0], p[1]), TableKind.TABLE, null, null, List.of(), List.of(),
                List.of(), List.of(), null), 0.5, null, null, List.of());
    }

    /** Answers every question with the same fixed ranking, remembering the schema filter it got. */
    private static final class Fixed implements TableRetriever {
        final List<String> ranking;
        Optional<String> lastSchema;

        Fixed(String... ranking) {
            this.ranking = List.of(ranking);
        }

        @Override
        public List<TableHit> search(String query, int limit, Optional<String> schema) {
            lastSchema = schema;
            return ranking.stream().limit(limit).map(EvaluationTest::hit).toList();
        }
    }

    @Test
    void metricsMatchAHandComputation() {
        Fixed retriever = new Fixed("s.a", "s.b", "s.c", "s.d");
        List<Question> questions = List.of(
                new Question("1", "q", List.of("s.a"), "s"),          // rank 1
                new Question("2", "q", List.of("s.c", "s.B"), "s"),   // ranks 3 and 2 (case-insensitive)
                new Question("3", "q", List.of("s.d", "s.z"), "s"));  // rank 4, one never found
        EvalResult r = Evaluation.run(retriever, questions, false);
        assertAll(() -> assertEquals(3, r.n()),
                () -> assertEquals((1 + 0 + 0) / 3.0, r.recall().get(1), 1e-9),
                () -> assertEquals((1 + 1 + 0) / 3.0, r.recall().get(3), 1e-9),
                () -> assertEquals((1 + 1 + 0.5) / 3.0, r.recall().get(5), 1e-9),
                () -> assertEquals(1 / 3.0, r.full().get(1), 1e-9),
                () -> assertEquals(2 / 3.0, r.full().get(3), 1e-9),
                () -> assertEquals(2 / 3.0, r.full().get(10), 1e-9, "s.z is never retrieved"),
                () -> assertEquals((1 + 1 / 2.0 + 1 / 4.0) / 3, r.mrr(), 1e-9));
        String json = r.toJson();
        assertTrue(json.matches("\\{\"n\":3,\"recall\":\\{\"1\":[0-9.]+,\"3\":[0-9.]+,\"5\":[0-9.]+,\"10\":[0-9.]+},"
                + "\"full\":\\{\"1\":[0-9.]+,\"3\":[0-9.]+,\"5\":[0-9.]+,\"10\":[0-9.]+},\"mrr\":[0-9.]+,"
                + "\"latency_ms\":\\{\"p50\":[0-9.]+,\"p95\":[0-9.]+}}"), json);
    }

    @Test
    void onlyAPerSchemaRunPassesTheQuestionsSchema() {
        Fixed retriever = new Fixed("s.a", "s.b", "s.c", "s.d");
        List<Question> questions = List.of(new Question("1", "q", List.of("s.a"), "s"));
        Evaluation.run(retriever, questions, false);
        assertEquals(Optional.empty(), retriever.lastSchema);
        Evaluation.run(retriever, questions, true);
        assertEquals(Optional.of("s"), retriever.lastSchema);
    }

    @Test
    void readsGoldenFiles() throws IOException {
        Path golden = dir.resolve("golden.json");
        Files.writeString(golden, """
                {"version": "1", "schema_description": "x", "questions": [
                  {"id": "g1", "question": "Who bought what?", "expected_tables": ["sales.orders", "sales.customers"]}]}""");
        Question g = QuestionFile.load(golden).get(0);
        assertEquals(new Question("g1", "Who bought what?", List.of("sales.orders", "sales.customers"), "sales"), g);
    }

    @Test
    void readsSpiderFiles() throws IOException {
        Path spider = dir.resolve("spider.json");
        Files.writeString(spider, """
                [{"db_id": "pets_1", "question": "How many pets?", "query": "SELECT 1", "gold_tables": ["Pets", "Pets"]}]""");
        Question s = QuestionFile.load(spider).get(0);
        assertAll(() -> assertEquals(List.of("pets_1.Pets"), s.expected()),
                () -> assertEquals("pets_1", s.schema()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badQuestionFiles")
    void badQuestionFilesAreRefusedWithOneSentence(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        IOException ex = assertThrows(IOException.class, () -> QuestionFile.load(file), name);
        assertTrue(ex.getMessage().contains(file.toString()) && !ex.getMessage().contains("\n"), ex.getMessage());
    }

    static Stream<Arguments> badQuestionFiles() {
        return Stream.of(
                arguments("notjson.json", "{nope"),
                arguments("version.json", "{\"version\": \"2\", \"questions\": []}"),
                arguments("unqualified.json", "{\"version\": \"1\", \"questions\": [{\"question\": \"q\", \"expected_tables\": [\"orders\"]}]}"),
                arguments("nogold.json", "[{\"db_id\": \"x\", \"question\": \"q\"}]"),
                arguments("empty.json", "[]"));
    }

    @Test
    void aMissingQuestionFileIsRefused() {
        assertThrows(IOException.class, () -> QuestionFile.load(dir.resolve("missing.json")));
    }
}
