package dev.schemabrain.semantic;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.ForeignKey;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.semantic.JoinGraph.Cardinality;
import dev.schemabrain.semantic.JoinGraph.Direction;
import dev.schemabrain.semantic.JoinGraph.JoinPaths;
import dev.schemabrain.semantic.JoinGraph.Path;
import dev.schemabrain.semantic.JoinGraph.Reason;
import dev.schemabrain.semantic.JoinGraph.Step;
import dev.schemabrain.semantic.JoinGraph.Unreachable;
import dev.schemabrain.semantic.JoinGraph.Via;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.source.ddl.DdlSource;
import dev.schemabrain.testing.Bench;
import dev.schemabrain.testing.TestCatalogs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static dev.schemabrain.testing.TestCatalogs.qn;
import static dev.schemabrain.testing.TestCatalogs.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JoinGraphTest {

    private static final JoinGraph CHINOOK = new JoinGraph(TestCatalogs.chinook(), List.of());
    private static Catalog demoCatalog;
    private static JoinGraph demo;

    @BeforeAll
    static void demoGraph(@TempDir java.nio.file.Path dir) throws Exception {
        demoCatalog = TestCatalogs.demo(dir);
        demo = new JoinGraph(demoCatalog, List.of());
    }

    private static Path onlyPath(JoinGraph graph, String a, String b, int maxHops) {
        JoinPaths result = graph.paths(List.of(qn(a), qn(b)), maxHops);
        assertEquals(List.of(), result.unreachable(), () -> a + " ↔ " + b);
        assertEquals(1, result.paths().size());
        return result.paths().get(0);
    }

    private static List<QualifiedName> tablesOf(Path path) {
        List<QualifiedName> tables = new ArrayList<>();
        tables.add(path.from());
        path.steps().forEach(s -> tables.add(s.to()));
        return tables;
    }

    // ------------------------------------------------------------------ Chinook-like

    @Test
    void trackToPlaylistGoesThroughTheJunction() {
        Path path = onlyPath(CHINOOK, "public.track", "public.playlist", 6);
        assertEquals(2, path.hops());
        assertTrue(path.crossesJunction());
        assertEquals(List.of(qn("public.playlist_track")), path.junctions());

        Step in = path.steps().get(0);
        assertEquals(qn("public.track"), in.from());
        assertEquals(List.of("track_id"), in.fromColumns());
        assertEquals(qn("public.playlist_track"), in.to());
        assertEquals(List.of("track_id"), in.toColumns());
        assertEquals(qn("public.playlist_track"), in.holder());
        assertEquals("playlist_track_track_id_fkey", in.foreignKeyName());
        assertEquals(Direction.REVERSE, in.direction());
        assertEquals(Cardinality.ONE_TO_MANY, in.cardinality());
        assertEquals(Via.JUNCTION, in.via());
        assertEquals(qn("public.playlist_track"), in.junction());
        assertEquals(0, in.alternatives());

        Step out = path.steps().get(1);
        assertEquals(qn("public.playlist_track"), out.from());
        assertEquals(List.of("playlist_id"), out.fromColumns());
        assertEquals(qn("public.playlist"), out.to());
        assertEquals(List.of("playlist_id"), out.toColumns());
        assertEquals(Direction.FORWARD, out.direction());
        assertEquals(Cardinality.MANY_TO_ONE, out.cardinality());
        assertEquals(Via.JUNCTION, out.via());
        assertEquals(qn("public.playlist_track"), out.junction());
        assertEquals("junction", out.via().wireName());
        assertEquals("many_to_one", out.cardinality().wireName());
    }

    @Test
    void aJunctionAtTheEndOfAPathIsNotCrossed() {
        Path path = onlyPath(CHINOOK, "public.track", "public.playlist_track", 6);
        assertEquals(1, path.hops());
        assertFalse(path.crossesJunction());
        assertEquals(Via.FOREIGN_KEY, path.steps().get(0).via());
        assertNull(path.steps().get(0).junction());
    }

    @Test
    void artistToGenreIsThreeHops() {
        Path path = onlyPath(CHINOOK, "public.artist", "public.genre", 6);
        assertEquals(3, path.hops());
        assertFalse(path.crossesJunction());
        assertEquals(List.of(qn("public.artist"), qn("public.album"), qn("public.track"), qn("public.genre")),
                tablesOf(path));
        assertEquals(List.of(Cardinality.ONE_TO_MANY, Cardinality.ONE_TO_MANY, Cardinality.MANY_TO_ONE),
                path.steps().stream().map(Step::cardinality).toList());
        assertEquals(List.of(Direction.REVERSE, Direction.REVERSE, Direction.FORWARD),
                path.steps().stream().map(Step::direction).toList());
        assertTrue(path.steps().stream().allMatch(s -> s.via() == Via.FOREIGN_KEY));
        Step first = path.steps().get(0);
        assertEquals(List.of("artist_id"), first.fromColumns());
        assertEquals(List.of("artist_id"), first.toColumns());
        assertEquals(qn("public.album"), first.holder());
    }

    @Test
    void maxHopsMakesAFartherPairUnreachable() {
        JoinPaths result = CHINOOK.paths(List.of(qn("public.artist"), qn("public.genre")), 2);
        assertEquals(List.of(), result.paths());
        assertEquals(List.of(new Unreachable(qn("public.artist"), qn("public.genre"), Reason.TOO_MANY_HOPS, 3)),
                result.unreachable());
        assertEquals(1, CHINOOK.paths(List.of(qn("public.artist"), qn("public.genre")), 3).paths().size());
        assertEquals(Reason.TOO_MANY_HOPS,
                CHINOOK.paths(List.of(qn("public.album"), qn("public.artist")), 0).unreachable().get(0).reason());
        assertThrows(IllegalArgumentException.class, () -> CHINOOK.paths(List.of(), -1));
    }

    @Test
    void disconnectedAndUnknownTablesAreUnreachable() {
        JoinPaths result = CHINOOK.paths(List.of(qn("public.audit_log"), qn("public.track"), qn("public.nope")), 6);
        assertEquals(List.of(), result.paths());
        assertEquals(List.of(
                new Unreachable(qn("public.audit_log"), qn("public.track"), Reason.NO_PATH, null),
                new Unreachable(qn("public.audit_log"), qn("public.nope"), Reason.UNKNOWN_TABLE, null),
                new Unreachable(qn("public.track"), qn("public.nope"), Reason.UNKNOWN_TABLE, null)),
                result.unreachable());
        assertEquals(List.of(), CHINOOK.neighbours(qn("public.audit_log")));
        assertEquals(List.of(), CHINOOK.neighbours(qn("public.nope")));
    }

    @Test
    void everyPairInInputOrder() {
        JoinPaths result = CHINOOK.paths(List.of(qn("public.genre"), qn("public.artist"), qn("public.playlist")), 6);
        assertEquals(List.of(), result.unreachable());
        assertEquals(List.of(
                        List.of(qn("public.genre"), qn("public.artist")),
                        List.of(qn("public.genre"), qn("public.playlist")),
                        List.of(qn("public.artist"), qn("public.playlist"))),
                result.paths().stream().map(p -> List.of(p.from(), p.to())).toList());
        assertEquals(List.of(3, 3, 4), result.paths().stream().map(Path::hops).toList());
        assertTrue(result.paths().get(2).crossesJunction());
        assertFalse(result.paths().get(0).crossesJunction());
    }

    @Test
    void selfReferencesDoNotBreakTheSearch() {
        Path path = onlyPath(CHINOOK, "public.employee", "public.invoice_line", 6);
        assertEquals(List.of(qn("public.employee"), qn("public.customer"), qn("public.invoice"), qn("public.invoice_line")),
                tablesOf(path));
        Path same = onlyPath(CHINOOK, "public.employee", "public.employee", 6);
        assertEquals(0, same.hops());

        List<Step> neighbours = CHINOOK.neighbours(qn("public.employee"));
        assertEquals(List.of(qn("public.customer"), qn("public.employee"), qn("public.employee")),
                neighbours.stream().map(Step::to).toList());
        Step up = neighbours.get(1);
        Step down = neighbours.get(2);
        assertEquals(Direction.FORWARD, up.direction());
        assertEquals(List.of("reports_to"), up.fromColumns());
        assertEquals(List.of("employee_id"), up.toColumns());
        assertEquals(Cardinality.MANY_TO_ONE, up.cardinality());
        assertEquals(Direction.REVERSE, down.direction());
        assertEquals(List.of("employee_id"), down.fromColumns());
        assertEquals(List.of("reports_to"), down.toColumns());
        assertEquals(Cardinality.ONE_TO_MANY, down.cardinality());
        assertEquals(0, up.alternatives());
    }

    @Test
    void parallelForeignKeysPreferTheFirstNameAndCountAlternatives() {
        JoinGraph graph = new JoinGraph(new Catalog(List.of(
                table("air.airport").columns("code:text", "name:text").pk("code").build(),
                table("air.flight").columns("id", "origin:text", "destination:text").pk("id")
                        .fk("flight_origin_fkey", "origin", "air.airport", "code")
                        .fk("flight_destination_fkey", "destination", "air.airport", "code").build())), List.of());
        Path path = onlyPath(graph, "air.airport", "air.flight", 6);
        Step step = path.steps().get(0);
        assertEquals("flight_destination_fkey", step.foreignKeyName());
        assertEquals(List.of("code"), step.fromColumns());
        assertEquals(List.of("destination"), step.toColumns());
        assertEquals(1, step.alternatives());
        assertEquals(List.of("flight_destination_fkey", "flight_origin_fkey"),
                graph.neighbours(qn("air.flight")).stream().map(Step::foreignKeyName).toList());
    }

    @Test
    void keysThatAreUniqueOnTheHolderAreOneToOne() {
        JoinGraph graph = new JoinGraph(new Catalog(List.of(
                table("hr.person").columns("id").pk("id").build(),
                table("hr.profile").columns("person_id", "bio:text").pk("person_id")
                        .fk("profile_person_fkey", "person_id", "hr.person", "id").build(),
                table("hr.passport").columns("id", "holder_id").pk("id").unique("holder_id")
                        .fk("passport_holder_fkey", "holder_id", "hr.person", "id").build(),
                table("hr.visit").columns("id", "person_id").pk("id")
                        .fk("visit_person_fkey", "person_id", "hr.person", "id").build())), List.of());
        assertEquals(List.of(Cardinality.ONE_TO_ONE, Cardinality.ONE_TO_ONE, Cardinality.ONE_TO_MANY),
                graph.neighbours(qn("hr.person")).stream().map(Step::cardinality).toList());
        assertEquals(Cardinality.ONE_TO_ONE, onlyPath(graph, "hr.profile", "hr.person", 1).steps().get(0).cardinality());
        assertEquals(Cardinality.MANY_TO_ONE, onlyPath(graph, "hr.visit", "hr.person", 1).steps().get(0).cardinality());
    }

    @Test
    void onlyAJunctionsKeyForeignKeysMakeACrossing() {
        // playlist_track gains an added_by reference outside its key: entering on it is an ordinary join.
        List<Table> tables = new ArrayList<>(TestCatalogs.chinook().tables());
        tables.removeIf(t -> t.name().equals(qn("public.playlist_track")));
        tables.add(table("public.playlist_track").columns("playlist_id", "track_id", "added_by")
                .pk("playlist_id", "track_id")
                .fk("playlist_track_playlist_id_fkey", "playlist_id", "public.playlist", "playlist_id")
                .fk("playlist_track_track_id_fkey", "track_id", "public.track", "track_id")
                .fk("playlist_track_added_by_fkey", "added_by", "public.employee", "employee_id").build());
        JoinGraph graph = new JoinGraph(new Catalog(tables), List.of());

        Path viaAddedBy = onlyPath(graph, "public.employee", "public.playlist", 6);
        assertEquals(List.of(qn("public.employee"), qn("public.playlist_track"), qn("public.playlist")), tablesOf(viaAddedBy));
        assertFalse(viaAddedBy.crossesJunction());
        assertTrue(onlyPath(graph, "public.track", "public.playlist", 6).crossesJunction());
    }

    @Test
    void resultsAreDeterministicWhateverTheInputOrder() {
        Random random = new Random(42);
        List<QualifiedName> requested = List.of(qn("public.employee"), qn("public.playlist"), qn("public.genre"),
                qn("public.media_type"), qn("public.artist"));
        JoinPaths expected = CHINOOK.paths(requested, 6);
        for (int run = 0; run < 10; run++) {
            List<Table> shuffled = new ArrayList<>(TestCatalogs.chinook().tables());
            Collections.shuffle(shuffled, random);
            shuffled.replaceAll(t -> reversedKeys(t));
            assertEquals(expected, new JoinGraph(new Catalog(shuffled), List.of()).paths(requested, 6));
        }
        List<QualifiedName> demoTables = demoCatalog.tables().stream().map(Table::name).toList();
        JoinPaths all = demo.paths(demoTables, 6);
        for (int run = 0; run < 3; run++) {
            List<Table> shuffled = new ArrayList<>(demoCatalog.tables());
            Collections.shuffle(shuffled, random);
            assertEquals(all, new JoinGraph(new Catalog(shuffled.stream().map(JoinGraphTest::reversedKeys).toList()), List.of())
                    .paths(demoTables, 6));
        }
    }

    private static Table reversedKeys(Table t) {
        List<ForeignKey> fks = new ArrayList<>(t.foreignKeys());
        Collections.reverse(fks);
        return new Table(t.name(), t.kind(), t.rowEstimate(), t.comment(), t.columns(), t.primaryKey(), fks,
                t.uniqueConstraints(), t.dataVersion());
    }

    // ------------------------------------------------------------------ the demo database

    @Test
    void demoUsersToTeamsPrefersTheTeamMembersJunction() {
        assertTrue(demoCatalog.table(qn("main.team_members")).orElseThrow().isJunction());
        Path path = onlyPath(demo, "main.users", "main.teams", 6);
        assertEquals(List.of(qn("main.users"), qn("main.team_members"), qn("main.teams")), tablesOf(path),
                "as short as users → organizations → teams, but the junction is the membership");
        assertTrue(path.crossesJunction());
        assertEquals(List.of(List.of("id"), List.of("team_id")), path.steps().stream().map(Step::fromColumns).toList());
        assertEquals(List.of(List.of("user_id"), List.of("id")), path.steps().stream().map(Step::toColumns).toList());
    }

    @Test
    void demoPathsAcrossTheBillingAndTeamTables() {
        JoinPaths result = demo.paths(List.of(qn("main.users"), qn("main.projects"), qn("main.teams"),
                qn("main.invoice_line_items")), 6);
        assertEquals(List.of(), result.unreachable());
        List<Path> paths = result.paths();
        assertEquals(6, paths.size());

        Path usersProjects = paths.get(0);
        assertEquals(List.of(qn("main.users"), qn("main.organizations"), qn("main.projects")), tablesOf(usersProjects));
        assertEquals(List.of(Cardinality.MANY_TO_ONE, Cardinality.ONE_TO_MANY),
                usersProjects.steps().stream().map(Step::cardinality).toList());

        assertEquals(2, paths.get(1).hops(), "users ↔ teams");
        assertEquals(List.of(qn("main.users"), qn("main.organizations"), qn("main.subscriptions"), qn("main.invoices"),
                qn("main.invoice_line_items")), tablesOf(paths.get(2)));
        Path projectsTeams = paths.get(3);
        assertEquals(1, projectsTeams.hops());
        assertEquals(List.of("team_id"), projectsTeams.steps().get(0).fromColumns());
        assertEquals(4, paths.get(4).hops(), "projects ↔ invoice_line_items");
        assertEquals(4, paths.get(5).hops(), "teams ↔ invoice_line_items");

        JoinPaths tight = demo.paths(List.of(qn("main.users"), qn("main.invoice_line_items")), 3);
        assertEquals(4, tight.unreachable().get(0).hopsNeeded());
    }
    // ------------------------------------------------------------------ the shared sample schemas

    private static JoinGraph sample(String file) throws Exception {
        try (DdlSource source = new DdlSource(SourceUrl.parse("ddl:" + Bench.sampleDb(file)))) {
            return new JoinGraph(source.introspect(IntrospectionOptions.withoutSamples()), List.of());
        }
    }

    @Test
    void realChinook() throws Exception {
        JoinGraph chinook = sample("chinook.sql");
        Path trackPlaylist = onlyPath(chinook, "public.track", "public.playlist", 6);
        assertEquals(List.of(qn("public.playlist_track")), trackPlaylist.junctions());
        assertEquals(3, onlyPath(chinook, "public.artist", "public.genre", 6).hops());
        assertEquals(List.of(qn("public.employee"), qn("public.customer"), qn("public.invoice")),
                tablesOf(onlyPath(chinook, "public.employee", "public.invoice", 6)));
    }

    @Test
    void realSakilaStoreAndStaffHaveTwoKeys() throws Exception {
        // staff.store_id → store and store.manager_staff_id → staff: the first name wins, the other is counted.
        JoinGraph sakila = sample("sakila.sql");
        Step step = onlyPath(sakila, "public.store", "public.staff", 6).steps().get(0);
        assertEquals("staff_store_id_fkey", step.foreignKeyName());
        assertEquals(Cardinality.ONE_TO_MANY, step.cardinality());
        assertEquals(1, step.alternatives());
        Step manager = sakila.neighbours(qn("public.store")).stream()
                .filter(s -> "store_manager_staff_id_fkey".equals(s.foreignKeyName())).findFirst().orElseThrow();
        assertEquals(Cardinality.ONE_TO_ONE, manager.cardinality(), "manager_staff_id is unique");
        Path actorCategory = onlyPath(sakila, "public.actor", "public.category", 6);
        assertEquals(List.of(qn("public.film_actor"), qn("public.film_category")), actorCategory.junctions());
        assertEquals(4, actorCategory.hops());
    }
}
