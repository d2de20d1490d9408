package dev.schemabrain.mcp.tools;

import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.served.ServedCatalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.schemabrain.demo.DemoDatabase;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.index.IndexListener;
import dev.schemabrain.index.Indexer;
import dev.schemabrain.mcp.envelope.Envelope;
import dev.schemabrain.error.ErrorKind;
import dev.schemabrain.mcp.envelope.Status;
import dev.schemabrain.mcp.tool.ToolRegistry;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * find_relevant_metrics and the paged listings (list_metrics, list_entities, list_joins) on the demo database, a
 * real SQLite file indexed into a real store, through the tools an agent calls.
 */
class SemanticSearchAndPagingTest {

    @TempDir
    static Path dir;
    static StoreCatalogProvider catalogs;
    static ToolRegistry tools;

    @BeforeAll
    static void index() throws Exception {
        SourceUrl url = SourceUrl.parse("sqlite:" + DemoDatabase.ensure(dir.resolve("demo.sqlite")));
        Path store = dir.resolve("store.db");
        try (SchemaSource source = Sources.open(url)) {
            new Indexer().run(url, source, store, false, IndexListener.SILENT);
        }
        catalogs = new StoreCatalogProvider(store);
        tools = StandardTools.registry(catalogs, Optional.empty());
    }

    private static List<String> names(Envelope e, String field) {
        List<String> out = new ArrayList<>();
        e.data().path(field).forEach(n -> out.add(n.path("name").asText()));
        return out;
    }

    @Test
    void aQuestionFindsTheMetricWithItsEntityGrainsAndNextSteps() {
        Envelope found = tools.call("find_relevant_metrics", Map.of("query", "how many support tickets were opened per week"));
        assertEquals(Status.SUCCESS, found.status(), found.toJson());
        JsonNode top = found.data().path("hits").get(0);
        assertEquals("support_tickets_count", top.path("name").asText(), found.toJson());
        assertEquals("support_tickets", top.path("entity").asText());
        assertTrue(top.path("time_grains").toString().contains("week"), top.toString());
        assertTrue(top.path("score").asDouble() > 0 && top.path("score").asDouble() <= 1, top.toString());
        assertNotNull(found.confidence());
        assertEquals(List.of("get_metric", "describe_entity"), found.followUpHints());
        assertTrue(found.data().path("hits").size() <= 10, "limit defaults to 10");
    }

    @Test
    void aQuestionNothingAnswersIsEmptyPointingAtTheListing() {
        Envelope none = tools.call("find_relevant_metrics", Map.of("query", "xyzzy plugh"));
        assertEquals(Status.EMPTY, none.status(), none.toJson());
        assertEquals(0, none.data().path("hits").size());
        assertEquals(List.of("list_metrics"), none.followUpHints());
    }

    @Test
    void aBlankQueryIsAnInvalidArgumentNamingTheFix() {
        Envelope blank = tools.call("find_relevant_metrics", Map.of("query", "   "));
        assertEquals(ErrorKind.INVALID_ARGUMENT, blank.error().kind());
        assertEquals("find_relevant_metrics", blank.error().recovery().suggestedTool());
    }

    @Test
    void theIndexIsBuiltOncePerServedCatalog() {
        tools.call("find_relevant_metrics", Map.of("query", "revenue"));
        ServedCatalog served = catalogs.current().orElseThrow();
        assertSame(served.metricSearch(), catalogs.current().orElseThrow().metricSearch());
        assertTrue(served.metricSearch().dense(), "the shared model embeds the metrics");
    }

    @Test
    void listMetricsPagesThroughEveryMetricOnceWithAnOpaqueCursor() {
        Envelope all = tools.call("list_metrics", Map.of("limit", 200));
        assertEquals(Status.SUCCESS, all.status());
        assertFalse(all.data().path("truncated").asBoolean());
        assertTrue(all.data().path("next_cursor").isMissingNode());
        List<String> every = names(all, "metrics");
        assertEquals(every.size(), all.data().path("total").asInt());
        assertTrue(every.size() > 10, "the demo drafts more than two pages of 5");

        List<String> paged = new ArrayList<>();
        Map<String, Object> args = new HashMap<>(Map.of("limit", 5));
        Envelope page;
        do {
            page = tools.call("list_metrics", args);
            paged.addAll(names(page, "metrics"));
            args.put("cursor", page.data().path("next_cursor").asText());
            if (page.data().path("truncated").asBoolean()) {
                assertEquals(Status.PARTIAL, page.status());
                assertEquals("list_metrics", page.followUpHints().get(0));
            }
        } while (page.data().path("truncated").asBoolean());
        assertEquals(Status.SUCCESS, page.status());
        assertEquals(every, paged);
    }

    @Test
    void listEntitiesAndJoinsPageTheSameWay() {
        for (String[] listing : List.of(new String[]{"list_entities", "entities"}, new String[]{"list_joins", "joins"})) {
            Envelope first = tools.call(listing[0], Map.of("limit", 2));
            assertEquals(Status.PARTIAL, first.status(), first.toJson());
            assertEquals(2, first.data().path(listing[1]).size());
            Envelope second = tools.call(listing[0], Map.of("limit", 2, "cursor", first.data().path("next_cursor").asText()));
            List<String> all = names(tools.call(listing[0], Map.of("limit", 4)), listing[1]);
            List<String> both = new ArrayList<>(names(first, listing[1]));
            both.addAll(names(second, listing[1]));
            assertEquals(all, both, listing[0]);
        }
    }

    @Test
    void aCursorThisListingDidNotGiveIsAnInvalidArgumentWithARecoveryWithoutIt() {
        String entitiesCursor = tools.call("list_entities", Map.of("limit", 2)).data().path("next_cursor").asText();
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString("v1:metrics:x:".getBytes(StandardCharsets.UTF_8));
        for (String cursor : List.of("not a cursor!", entitiesCursor, forged, "djE6bWV0cmljczow")) {
            Envelope bad = tools.call("list_metrics", Map.of("limit", 3, "cursor", cursor));
            assertEquals(ErrorKind.INVALID_ARGUMENT, bad.error().kind(), cursor + " " + bad.toJson());
            assertTrue(bad.error().message().contains("without cursor"), bad.error().message());
            assertEquals("list_metrics", bad.error().recovery().suggestedTool());
            assertEquals(Map.of("limit", 3), bad.error().recovery().suggestedArgs());
        }
    }

    @Test
    void aCursorResumesAfterItsLastNameWhenTheListChanged() {
        List<String> every = names(tools.call("list_metrics", Map.of("limit", 200)), "metrics");
        // A cursor written for a longer list: position 3 no longer follows every.get(5), so the page resumes by name.
        String raw = "v1:metrics:3:" + every.get(5);
        String cursor = Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        Envelope page = tools.call("list_metrics", Map.of("limit", 2, "cursor", cursor));
        assertEquals(every.subList(6, 8), names(page, "metrics"), page.toJson());
    }
}
