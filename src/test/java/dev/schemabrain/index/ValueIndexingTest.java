package dev.schemabrain.index;

import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.engine.SourceUrl;
import dev.schemabrain.served.ServedCatalog;
import dev.schemabrain.served.StoreCatalogProvider;
import dev.schemabrain.retrieve.TableHit;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.source.Sources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The value index end to end on real SQLite files: what is read, what is stored, what a question finds. */
class ValueIndexingTest {

    @TempDir
    Path dir;

    private static void fill(Path database) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + database); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE branch (branch_id INTEGER PRIMARY KEY, district TEXT, opened TEXT)");
            st.execute("CREATE TABLE client (client_id INTEGER PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT,"
                    + " branch_id INTEGER REFERENCES branch (branch_id), remark TEXT)");
            st.execute("CREATE TABLE loan (loan_id INTEGER PRIMARY KEY, client_id INTEGER REFERENCES client (client_id),"
                    + " amount REAL, status TEXT)");
            try (PreparedStatement b = c.prepareStatement("INSERT INTO branch VALUES (?, ?, ?)")) {
                String[] districts = {"Jesenik", "Hl.m. Praha", "Ústí nad Labem", "Evil\u0000District", "y".repeat(10_240)};
                for (int i = 0; i < districts.length; i++) {
                    b.setInt(1, i + 1);
                    b.setString(2, districts[i]);
                    b.setString(3, "2020-01-0" + (i + 1));
                    b.executeUpdate();
                }
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO client VALUES (?, ?, ?, ?, ?, ?)")) {
                String[][] people = {{"Ophelia", "Quartermaine"}, {"Bartholomew", "Zwickau"}, {"Ophelia", "Lindqvist"}};
                for (int i = 0; i < 60; i++) {
                    p.setInt(1, i + 1);
                    p.setString(2, people[i % 3][0]);
                    p.setString(3, people[i % 3][1]);
                    p.setString(4, "person" + i + "@example.com");
                    p.setInt(5, i % 3 + 1);
                    p.setString(6, "Called on day " + i);
                    p.executeUpdate();
                }
            }
            st.execute("INSERT INTO loan VALUES (1, 1, 1000, 'running'), (2, 2, 500, 'finished')");
        }
    }

    private ServedCatalog index(String url, Path store) throws Exception {
        SourceUrl source = SourceUrl.parse(url);
        try (SchemaSource s = Sources.open(source)) {
            new Indexer().run(source, s, store, false, IndexListener.SILENT);
        }
        return new StoreCatalogProvider(store, Optional.empty()).current().orElseThrow();
    }

    private static Column column(ServedCatalog served, String table, String column) {
        return served.catalog().tables().stream().filter(t -> t.name().table().equals(table)).findFirst()
                .flatMap(t -> t.column(column)).orElseThrow();
    }

    @Test
    void aQuestionNamingAValueFindsItsTableAndPiiValuesAreNeverIndexed() throws Exception {
        Path database = dir.resolve("bank.sqlite");
        fill(database);
        ServedCatalog served = index("sqlite:" + database, dir.resolve("store.db"));
        List<TableHit> hits = served.retriever().search("how many clients of the jesenik branch", 3, Optional.empty());
        TableHit branch = hits.stream().filter(h -> h.table().name().table().equals("branch")).findFirst().orElseThrow();
        List<String> allValues = served.catalog().tables().stream().flatMap(t -> t.columns().stream())
                .flatMap(c -> c.values().stream()).toList();
        assertAll(
                () -> assertEquals(List.of("Jesenik", "Hl.m. Praha", "Ústí nad Labem"), column(served, "branch", "district").values(),
                        "a value with a control character or of 10 KB is not indexed"),
                () -> assertTrue(hits.indexOf(branch) <= 1, hits.toString()),
                () -> assertEquals(new TableHit.MatchedValue("district", "Jesenik"), branch.matchedValue()),
                () -> assertEquals("district", branch.bestColumn().name()),
                // Names and e-mail addresses are PII: neither stored nor matched, whatever the question says.
                () -> assertEquals(List.of(), column(served, "client", "first_name").values()),
                () -> assertEquals(List.of(), column(served, "client", "email").values()),
                () -> assertTrue(allValues.stream().noneMatch(v -> v.contains("Ophelia") || v.contains("@")), allValues.toString()),
                () -> assertTrue(served.retriever().search("loans of Ophelia Quartermaine", 5, Optional.empty()).stream()
                        .allMatch(h -> h.matchedValue() == null)),
                () -> assertEquals(List.of(), column(served, "branch", "opened").values(), "dates are not values"),
                () -> assertEquals(List.of("running", "finished"), column(served, "loan", "status").values()));
    }

    @Test
    void spiderLayoutGivesDataReadableNamesAndTheDictionaryAndReusesUnchangedData() throws Exception {
        Path spider = dir.resolve("spider");
        Path folder = Files.createDirectories(spider.resolve("database/bank/database_description"));
        fill(folder.getParent().resolve("bank.sqlite"));
        Files.writeString(folder.resolve("branch.csv"), """
                original_column_name,column_name,column_description,value_description
                district,district name,"The district where the branch is, ""as registered""\u0007",
                opened,,opening date,"YYYY-MM-DD"
                """);
        Files.writeString(spider.resolve("tables.json"), """
                [{"db_id": "bank",
                  "table_names_original": ["branch", "client", "loan"],
                  "table_names": ["bank branch", "client", "loan"],
                  "column_names_original": [[-1, "*"], [0, "branch_id"], [0, "district"], [0, "opened"],
                     [1, "client_id"], [1, "first_name"], [1, "last_name"], [1, "email"], [1, "branch_id"], [1, "remark"],
                     [2, "loan_id"], [2, "client_id"], [2, "amount"], [2, "status"]],
                  "column_names": [[-1, "*"], [0, "branch id"], [0, "district"], [0, "opened"],
                     [1, "client id"], [1, "first name"], [1, "last name"], [1, "email"], [1, "branch id"], [1, "remark"],
                     [2, "loan id"], [2, "client id"], [2, "amount"], [2, "loan status"]],
                  "column_types": ["text", "number", "text", "text", "number", "text", "text", "text", "number", "text",
                     "number", "number", "number", "text"],
                  "primary_keys": [1, 4, 10], "foreign_keys": [[8, 1], [11, 4]]}]
                """);
        Path store = dir.resolve("spider-store.db");
        ServedCatalog served = index("spider:" + spider.resolve("tables.json"), store);
        Table branch = served.catalog().tables().stream().filter(t -> t.name().table().equals("branch")).findFirst().orElseThrow();
        assertAll(() -> assertEquals("bank branch", branch.comment()),
                () -> assertEquals("loan status", column(served, "loan", "status").comment()),
                () -> assertNull(column(served, "client", "first_name").comment(), "the same words are no comment"),
                () -> assertEquals("district name. The district where the branch is, \"as registered\"",
                        column(served, "branch", "district").comment(), "control characters are dropped"),
                () -> assertEquals("opening date. YYYY-MM-DD", column(served, "branch", "opened").comment()),
                () -> assertEquals(List.of("Jesenik", "Hl.m. Praha", "Ústí nad Labem"), column(served, "branch", "district").values()),
                () -> assertFalse(column(served, "loan", "status").samples().isEmpty()),
                () -> assertEquals(List.of(), column(served, "client", "email").values()));
        // An unchanged file (same size and time, its data-version token) is not read again: its values are reused.
        // (A change that keeps both is not seen, as with any data-version token; here it proves nothing was read.)
        Path file = folder.getParent().resolve("bank.sqlite");
        var time = Files.getLastModifiedTime(file);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("UPDATE branch SET district = 'Changed' WHERE branch_id = 1");
        }
        Files.setLastModifiedTime(file, time);
        ServedCatalog again = index("spider:" + spider.resolve("tables.json"), store);
        assertEquals(List.of("Jesenik", "Hl.m. Praha", "Ústí nad Labem"), column(again, "branch", "district").values());
        Files.setLastModifiedTime(file, FileTime.fromMillis(time.toMillis() + 5_000));
        ServedCatalog moved = index("spider:" + spider.resolve("tables.json"), store);
        assertEquals(List.of("Changed", "Hl.m. Praha", "Ústí nad Labem"), column(moved, "branch", "district").values(),
                "a moved token reads the rows again");
    }
}
