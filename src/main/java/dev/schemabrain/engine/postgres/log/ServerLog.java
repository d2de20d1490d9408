package dev.schemabrain.engine.postgres.log;

import dev.schemabrain.engine.LogFiles;
import dev.schemabrain.engine.LoggedStatement;
import dev.schemabrain.error.UserError;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;

/**
 * A PostgreSQL server's own statement log, read from files: csvlog, jsonlog or the stderr format (told apart by
 * their lines), logged with {@code log_statement = 'all'} or {@code log_min_duration_statement = 0}. Unlike
 * pg_stat_statements it keeps each statement's constants and bind parameters, so the examples mined from it can run
 * as they are once the normalizer has taken out every value it may not keep.
 */
public final class ServerLog implements LogFiles {

    private final Executions executions;
    private final Figures figures;

    private ServerLog(Executions executions, Figures figures) {
        this.executions = executions;
        this.figures = figures;
    }

    /**
     * Reads every file {@code patterns} name (a path, or a glob in its file name such as {@code log/postgresql-*.csv});
     * {@code prefix} is the server's log_line_prefix for stderr files, null to recognise the common ones.
     */
    public static ServerLog read(List<String> patterns, String prefix) throws UserError {
        List<LinePrefix> prefixes = new ArrayList<>();
        if (prefix != null) {
            LinePrefix given = LinePrefix.of(prefix).orElseThrow(() -> new UserError("--log-line-prefix '" + prefix
                    + "' holds an escape PostgreSQL's log_line_prefix does not have; copy the server's setting as it is."));
            if (!given.namesUserAndDatabase()) {
                throw new UserError("--log-line-prefix '" + prefix + "' names no user and database; statements can only"
                        + " be mined from a log whose log_line_prefix has %u and %d (such as '%m [%p] %q%u@%d ').");
            }
            prefixes.add(given);
        } else {
            LinePrefix.KNOWN.forEach(p -> prefixes.add(LinePrefix.of(p).orElseThrow()));
        }
        Executions executions = new Executions();
        List<Path> files = files(patterns);
        long foreign = 0;
        for (Path file : files) {
            foreign += readOne(file, prefixes, executions);
        }
        return new ServerLog(executions, new Figures(files.size(), executions.messages(), executions.statements(),
                executions.steps(), foreign));
    }

    @Override
    public Figures figures() {
        return figures;
    }

    /** The statements run in {@code database}, counted, each with its user, session path and first/last time. */
    @Override
    public List<LoggedStatement> statements(String database) {
        return executions.statements(database);
    }

    /** How many statement runs the files hold for other databases (left out). */
    @Override
    public long elsewhere(String database) {
        return executions.elsewhere(database);
    }

    private static List<Path> files(List<String> patterns) throws UserError {
        TreeSet<Path> out = new TreeSet<>();
        for (String pattern : patterns) {
            Path path = Path.of(pattern);
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            if (!isGlob(name)) {
                out.add(path);
                continue;
            }
            Path dir = path.getParent() == null ? Path.of(".") : path.getParent();
            if (isGlob(dir.toString())) {
                throw new UserError("--log-file " + pattern + ": only the file name may hold a glob (such as"
                        + " /var/log/postgresql/postgresql-*.csv); name the directory as it is.");
            }
            List<Path> matched = new ArrayList<>();
            try (DirectoryStream<Path> in = Files.newDirectoryStream(dir, name)) {
                for (Path p : in) {
                    if (Files.isRegularFile(p)) {
                        matched.add(p);
                    }
                }
            } catch (IOException e) {
                throw new UserError("--log-file " + pattern + ": the directory " + dir + " cannot be read; check the path"
                        + " and that this user may read the server's log_directory.");
            }
            if (matched.isEmpty()) {
                throw new UserError("No file matches --log-file " + pattern + "; check the path against the server's"
                        + " log_directory and log_filename.");
            }
            out.addAll(matched);   // rotated files named by time read in order
        }
        return List.copyOf(out);
    }

    private static boolean isGlob(String s) {
        return s.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    /** Reads one file into {@code executions}; returns its lines that were no log message. */
    private static long readOne(Path file, List<LinePrefix> prefixes, Executions executions) throws UserError {
        if (Files.isDirectory(file)) {
            throw new UserError("The log file " + file + " is a directory; pass the files in it, such as --log-file '"
                    + file.resolve("*.csv") + "'.");
        }
        try {
            Format format = format(file, prefixes);
            long before = executions.statements();
            long withoutDatabase = executions.withoutDatabase();
            long foreign;
            try (BufferedReader in = open(file)) {
                foreign = switch (format.kind()) {
                    case CSV -> CsvLog.read(in, executions);
                    case JSON -> JsonLog.read(in, executions);
                    case STDERR -> StderrLog.read(in, format.prefix(), executions);
                };
            }
            long read = executions.statements() - before;
            if (read > 0 && executions.withoutDatabase() - withoutDatabase == read) {
                throw noUserAndDatabase(file);
            }
            return foreign;
        } catch (NoSuchFileException e) {
            throw new UserError("The log file " + file + " does not exist; check the path against the server's"
                    + " log_directory and log_filename.");
        } catch (AccessDeniedException e) {
            throw new UserError("The log file " + file + " cannot be read by this user; run as a user who may read the"
                    + " server's log_directory (or copy the files).");
        } catch (IOException e) {
            throw new UserError("The log file " + file + " could not be read (" + e.getClass().getSimpleName()
                    + "); check that it is a complete, readable file.");
        }
    }

    private static UserError noUserAndDatabase(Path file) {
        return new UserError("The log file " + file + " names no user and database on its lines; set log_line_prefix to"
                + " include them (such as '%m [%p] %q%u@%d ') and pass the logs written since.");
    }

    private enum Kind { CSV, JSON, STDERR }

    private record Format(Kind kind, LinePrefix prefix) {
    }

    /** Lines looked at to tell the format and the prefix. */
    private static final int SNIFF = 200;

    private static Format format(Path file, List<LinePrefix> prefixes) throws IOException, UserError {
        List<String> head = new ArrayList<>();
        try (BufferedReader in = open(file)) {
            String line;
            while (head.size() < SNIFF && (line = in.readLine()) != null) {
                if (!line.isBlank() && !line.startsWith("\t")) {
                    head.add(line);
                }
            }
        }
        if (head.isEmpty()) {
            return new Format(Kind.JSON, null);   // an empty file: nothing logged yet, any reader reads nothing
        }
        if (JsonLog.looksLike(head.get(0))) {
            return new Format(Kind.JSON, null);
        }
        if (CsvLog.looksLike(head.get(0))) {
            return new Format(Kind.CSV, null);
        }
        Optional<LinePrefix> best = Optional.empty();
        long most = 0;
        for (LinePrefix p : prefixes) {
            // A line whose %q part is absent (a background process) fits every prefix: count those that name a user.
            long fits = head.stream().filter(l -> p.match(l).map(m -> m.group("user") != null).orElse(false)).count();
            if (fits > most) {
                most = fits;
                best = Optional.of(p);
            }
        }
        if (best.isEmpty() && head.stream().anyMatch(l -> prefixes.stream().anyMatch(p -> p.match(l).isPresent()))) {
            throw noUserAndDatabase(file);   // such as the server's own default prefix, '%m [%p] '
        }
        if (best.isEmpty()) {
            throw new UserError("The log file " + file + " is not a PostgreSQL log mine-queries can read: it expects"
                    + " csvlog, jsonlog, or the stderr format with a log_line_prefix naming user and database (such as"
                    + " '%m [%p] %q%u@%d '); pass the server's prefix with --log-line-prefix if it is another.");
        }
        return new Format(Kind.STDERR, best.get());
    }

    private static BufferedReader open(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        InputStream in = file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        // The server writes each database's encoding; a byte that is not UTF-8 must not stop the read.
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }
}
