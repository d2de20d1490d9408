package dev.schemabrain.retrieve.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the two question formats: a golden file
 * {@code {version:"1", schema_description, questions:[{id, question, expected_tables:[schema.table…]}]}}
 * or a Spider-format list {@code [{db_id, question, gold_tables:[table…]}]}, where each expected table
 * becomes {@code db_id.table}.
 */
public final class QuestionFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private QuestionFile() {
    }

    /** The questions of {@code file}; an IOException says in one sentence what is wrong with it. */
    public static List<Question> load(Path file) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw new IOException("the question file " + file + " does not exist");
        } catch (IOException e) {
            throw new IOException("the question file " + file + " is not JSON (" + firstLine(e) + ")");
        }
        List<Question> questions = root != null && root.isArray() ? spider(root, file) : golden(root, file);
        if (questions.isEmpty()) {
            throw new IOException("the question file " + file + " holds no questions");
        }
        return questions;
    }

    private static List<Question> spider(JsonNode root, Path file) throws IOException {
        List<Question> questions = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            JsonNode q = root.get(i);
            String db = text(q, "db_id", file, i);
            String question = text(q, "question", file, i);
            JsonNode gold = q.get("gold_tables");
            if (gold == null || !gold.isArray() || gold.isEmpty()) {
                throw new IOException("entry " + i + " of " + file + " has no gold_tables list");
            }
            List<String> expected = new ArrayList<>();
            gold.forEach(t -> expected.add(db + "." + t.asText()));
            questions.add(new Question(db + "#" + i, question, expected.stream().distinct().toList(), db));
        }
        return questions;
    }

    private static List<Question> golden(JsonNode root, Path file) throws IOException {
        if (root == null || !root.isObject() || !root.path("questions").isArray()) {
            throw new IOException("the question file " + file + " is neither a golden file ({\"version\": \"1\", "
                    + "\"questions\": [...]}) nor a Spider-format list");
        }
        String version = root.path("version").asText("");
        if (!version.equals("1")) {
            throw new IOException("the golden file " + file + " has version '" + version + "'; version \"1\" is supported");
        }
        List<Question> questions = new ArrayList<>();
        JsonNode list = root.get("questions");
        for (int i = 0; i < list.size(); i++) {
            JsonNode q = list.get(i);
            String question = text(q, "question", file, i);
            JsonNode tables = q.get("expected_tables");
            if (tables == null || !tables.isArray() || tables.isEmpty()) {
                throw new IOException("question " + i + " of " + file + " has no expected_tables list");
            }
            List<String> expected = new ArrayList<>();
            for (JsonNode t : tables) {
                String name = t.asText();
                if (!name.contains(".")) {
                    throw new IOException("question " + i + " of " + file + " expects '" + name
                            + "'; expected tables are qualified as schema.table");
                }
                expected.add(name);
            }
            String id = q.path("id").asText(String.valueOf(i));
            questions.add(new Question(id, question, expected.stream().distinct().toList(),
                    expected.get(0).substring(0, expected.get(0).lastIndexOf('.'))));
        }
        return questions;
    }

    private static String text(JsonNode q, String field, Path file, int i) throws IOException {
        JsonNode v = q == null ? null : q.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IOException("entry " + i + " of " + file + " has no '" + field + "'");
        }
        return v.asText();
    }

    private static String firstLine(IOException e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
