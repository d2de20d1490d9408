package dev.schemabrain.source.ddl;

import dev.schemabrain.catalog.Catalog;
import dev.schemabrain.engine.IntrospectionOptions;
import dev.schemabrain.engine.SchemaSource;
import dev.schemabrain.error.SourceException;
import dev.schemabrain.engine.SourceKind;
import dev.schemabrain.engine.SourceUrl;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * An offline source: the tables, views and keys declared in a file of SQL DDL (a pg_dump or
 * mysqldump schema dump, or hand-written CREATE TABLE statements). No database is contacted, so
 * there are no row estimates, data versions or sample values.
 */
public final class DdlSource implements SchemaSource {

    private final Path path;

    public DdlSource(SourceUrl url) {
        this.path = url.path();
    }

    @Override
    public SourceKind kind() {
        return SourceKind.DDL;
    }

    @Override
    public Catalog introspect(IntrospectionOptions options) throws SourceException {
        String script = read(path);
        String fileName = path.getFileName() == null ? path.toString() : path.getFileName().toString();
        return new Catalog(DdlReader.read(SqlSplitter.split(script), fileName));
    }

    /** The file's text: UTF-8, or Latin-1 for older dumps that are not valid UTF-8. */
    static String read(Path path) throws SourceException {
        if (Files.isDirectory(path)) {
            throw new SourceException("The DDL source " + path + " is a directory; point ddl: at a .sql file.");
        }
        try {
            String text;
            try {
                text = Files.readString(path, StandardCharsets.UTF_8);
            } catch (CharacterCodingException e) {
                text = Files.readString(path, StandardCharsets.ISO_8859_1);
            }
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (NoSuchFileException e) {
            throw new SourceException("The DDL file " + path + " does not exist; check the path after ddl:.");
        } catch (AccessDeniedException e) {
            throw new SourceException("The DDL file " + path + " cannot be read (permission denied); make it readable.");
        } catch (IOException e) {
            throw new SourceException("The DDL file " + path + " cannot be read (" + e.getMessage() + ").", e);
        }
    }
}
