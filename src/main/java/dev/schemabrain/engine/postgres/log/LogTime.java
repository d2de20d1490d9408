package dev.schemabrain.engine.postgres.log;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The server's log timestamps ({@code 2026-05-01 12:00:00.123 UTC}, {@code %t}, {@code %m}, csvlog, jsonlog). */
final class LogTime {

    private static final Pattern TIME = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d[ T]\\d\\d:\\d\\d:\\d\\d(?:\\.\\d+)?)\\s*(\\S*)");
    private static final DateTimeFormatter LOCAL = new DateTimeFormatterBuilder().appendPattern("yyyy-MM-dd")
            .optionalStart().appendLiteral(' ').optionalEnd().optionalStart().appendLiteral('T').optionalEnd()
            .appendPattern("HH:mm:ss").appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).toFormatter();

    private LogTime() {
    }

    /** The instant, read in the zone the server wrote (UTC when the abbreviation is not one Java knows); null if none. */
    static Instant parse(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = TIME.matcher(text.strip());
        if (!m.lookingAt()) {
            return null;
        }
        LocalDateTime local = LocalDateTime.parse(m.group(1), LOCAL);
        return local.atZone(zone(m.group(2))).toInstant();
    }

    private static ZoneId zone(String name) {
        if (name.isEmpty()) {
            return ZoneOffset.UTC;
        }
        try {
            return name.startsWith("+") || name.startsWith("-") ? ZoneOffset.of(name) : ZoneId.of(name, ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            return ZoneOffset.UTC;   // an abbreviation such as CEST: the day and hour still order the statements
        }
    }
}
