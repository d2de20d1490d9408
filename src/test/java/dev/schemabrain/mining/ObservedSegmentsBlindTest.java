package dev.schemabrain.mining;

import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.semantic.model.Entity;
import dev.schemabrain.semantic.model.Segment;
import dev.schemabrain.semantic.model.SemanticModel;
import dev.schemabrain.store.SqlScript;
import dev.schemabrain.testing.TestPostgres;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import static dev.schemabrain.mining.MinedStore.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The observed-segment rules on domains they were not written from (a library: members, items, loans; a veterinary
 * clinic with yes/no columns: owners, pets, visits), each scored against a verdict judged by hand beforehand
 * (src/test/resources/blind-segments). Writes the scores to target/segments-blind-DOMAIN.txt.
 */
class ObservedSegmentsBlindTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"library", "clinic"})
    void theWorkloadProposesWhatTheVerdictWants(String domain) throws Exception {
        String db = "t30_blind_" + domain;
        List<String> ddl = SqlScript.statements(resource(domain + ".sql"));
        TestPostgres.createDatabase(db, ddl.toArray(String[]::new));
        MinedStore mined = new MinedStore(dir.resolve("store.db"));
        ok(mined.cli("index", "--source", TestPostgres.url(db)));
        List<LoggedStatement> logged = resource(domain + "-workload.sql").lines().filter(l -> !l.isBlank())
                .map(l -> new LoggedStatement(l, 4)).toList();
        mined.mineLog(TestPostgres.url(db), domain, logged);

        Set<String> wanted = new TreeSet<>();
        resource(domain + "-verdict.txt").lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                .forEach(l -> wanted.add(l.strip().replaceAll("\\s+", ".")));
        SemanticModel model = mined.semanticLayer();
        Set<String> proposed = new TreeSet<>();
        for (Entity e : model.entities()) {
            e.segments().stream().filter(g -> g.observed() != null).map(Segment::name).forEach(n -> proposed.add(e.name() + "." + n));
        }
        Set<String> hit = new TreeSet<>(proposed);
        hit.retainAll(wanted);
        double precision = proposed.isEmpty() ? 1 : (double) hit.size() / proposed.size();
        double recall = wanted.isEmpty() ? 1 : (double) hit.size() / wanted.size();
        List<String> report = new ArrayList<>();
        report.add(String.format(domain + ": %d proposed, %d wanted, precision %.2f, recall %.2f", proposed.size(), wanted.size(),
                precision, recall));
        proposed.forEach(p -> report.add((wanted.contains(p) ? "  ok    " : "  extra ") + p));
        wanted.stream().filter(w -> !proposed.contains(w)).forEach(w -> report.add("  miss  " + w));
        model.metrics().stream().filter(m -> m.origin().method().wireName().equals("observed_in_query_log"))
                .forEach(m -> report.add("  metric " + m.name() + " " + m.filters()));
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/segments-blind-" + domain + ".txt"), report);
        System.out.println(String.join("\n", report));
        assertEquals(wanted, proposed, String.join("\n", report));
    }

    private static String resource(String name) throws Exception {
        try (var in = Objects.requireNonNull(ObservedSegmentsBlindTest.class.getResourceAsStream("/blind-segments/" + name), name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
