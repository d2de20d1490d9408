package dev.schemabrain.source;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.catalog.Column;
import dev.schemabrain.catalog.QualifiedName;
import dev.schemabrain.catalog.Table;
import dev.schemabrain.catalog.TableKind;
import dev.schemabrain.error.SourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Data-dictionary CSV files as column comments, and the files it refuses. */
class DictionaryTest {

    @TempDir
    Path dir;

    private static Catalog catalog() {
        return new Catalog(List.of(new Table(QualifiedName.of("public", "Account"), TableKind.TABLE, null, null,
                List.of(new Column("frequency", 1, "text", true, null, "own comment", List.of()),
                        new Column("district_id", 2, "integer", true, null, null, List.of()),
                        new Column("date", 3, "date", true, null, null, List.of())),
                List.of(), List.of(), List.of(), null)));
    }

    @Test
    void rowsBecomeColumnCommentsAfterTheDatabasesOwn() throws Exception {
        // Latin-1 bytes, CRLF, a quoted field with a comma and a doubled quote, a file name in another case.
        Files.write(dir.resolve("ACCOUNT.csv"), ("original_column_name,column_name,column_description,value_description\r\n"
                + "frequency,,frequency of the statement,\"\"\"POPLATEK MESICNE\"\" stands for monthly issuance, é\"\r\n"
                + "district_id,location of branch,location of branch,\r\n").getBytes(StandardCharsets.ISO_8859_1));
        Table t = Dictionary.read(dir).apply(catalog()).tables().get(0);
        assertAll(() -> assertEquals("own comment. frequency of the statement. \"POPLATEK MESICNE\" stands for monthly issuance, é",
                        t.columns().get(0).comment()),
                () -> assertEquals("location of branch", t.columns().get(1).comment()),
                () -> assertEquals(null, t.columns().get(2).comment()));
    }

    @Test
    void hostileFilesAreCutOrRefusedInOneSentence() throws Exception {
        Files.writeString(dir.resolve("account.csv"), "original_column_name,column_description\n"
                + "frequency,\"" + "a\u0000b\u202e ".repeat(2000) + "\"\n");
        String comment = Dictionary.read(dir).apply(catalog()).tables().get(0).columns().get(0).comment();
        assertTrue(comment.length() <= "own comment. ".length() + Dictionary.MAX_FIELD && !comment.contains("\u0000")
                && !comment.contains("\u202e"), comment);

        Files.writeString(dir.resolve("account.csv"), "name,description\nfrequency,x\n");
        SourceException noHeader = assertThrows(SourceException.class, () -> Dictionary.read(dir));
        Files.write(dir.resolve("account.csv"), new byte[(int) Dictionary.MAX_FILE + 1]);
        SourceException tooBig = assertThrows(SourceException.class, () -> Dictionary.read(dir));
        SourceException missing = assertThrows(SourceException.class, () -> Dictionary.read(dir.resolve("nope")));
        assertAll(() -> assertTrue(noHeader.getMessage().contains("original_column_name"), noHeader.getMessage()),
                () -> assertTrue(tooBig.getMessage().contains("larger than"), tooBig.getMessage()),
                () -> assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage()));
    }
}
