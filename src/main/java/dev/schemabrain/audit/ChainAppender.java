package dev.schemabrain.audit;

import dev.schemabrain.error.AuditException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Writes a batch of rows as the chain's next rows in one transaction that reads the head first, so
 * concurrent callers, threads or processes still form one linear chain. Keeps the head this log wrote
 * last; a batch that finds the chain moved by someone else has the witnesses checked again. The
 * connection and {@link #written} are under {@code onConnection}.
 */
final class ChainAppender implements GroupCommit.BatchWriter {

    /** What the next fsync covers, and whether the chain went on from this log's own head since the last one. */
    record Unflushed(Head head, boolean own) {
    }

    private final ChainStore chain;
    private final Connection connection;
    private final Clock clock;
    private final AuditKey key;
    private final ChainWitnesses witnesses;
    private final LogStop stop;
    private final Object onConnection;
    /** The log's verified mark, parsed once; null until marked. Appends bind row {@link KeyedMark#boundFrom} to it. */
    private volatile KeyedMark mark;
    /** The head of the last committed batch, as this log wrote it. */
    private Head written;
    /** Whether the chain went on from {@link #written} since the last witness (no other writer, no truncation). */
    private boolean ownChain = true;
    /** {@link #written}'s row count, for the flusher to see without waiting for a batch being written. */
    private volatile long writtenCount;

    ChainAppender(ChainStore chain, Clock clock, AuditKey key, ChainWitnesses witnesses, LogStop stop, Object onConnection) {
        this.chain = chain;
        this.connection = chain.connection();
        this.clock = clock;
        this.key = key;
        this.witnesses = witnesses;
        this.stop = stop;
        this.onConnection = onConnection;
    }

    /**
     * Signs the log as keyed once (logs of earlier builds on their first serve by this one): the keyless
     * prefix, the next row (whose HMAC will cover the mark) and whether the store keeps a witness. Under the
     * append lock, so the next row is the one every process appends next; a mark another process wrote first
     * wins. Answers the log's meta with its mark.
     */
    AuditSchema.Meta markKeyed(AuditSchema.Meta meta, boolean storeWitness) throws SQLException, AuditException {
        if (meta.mark() == null) {
            Connection c = connection;
            ChainRows.inTransaction(c, () -> {
                chain.lockHead(c);
                AuditSchema.Meta now = AuditSchema.meta(c);
                if (now.mark() == null) {
                    String legacyHead = ChainRows.storedHash(c, now.legacyRows()).orElseThrow(
                            () -> new SQLException("row " + now.legacyRows() + " (the last keyless one) is missing"));
                    AuditSchema.insertMark(c, KeyedMark.sign(key, now.legacyRows(), legacyHead,
                            ChainRows.lastRow(c).count() + 1, storeWitness));
                }
                return null;
            });
            meta = AuditSchema.meta(c);
        }
        mark = KeyedMark.parse(meta.mark()).filter(m -> m.verifies(key)).orElseThrow(() -> new AuditException(
                "The audit log " + chain.name() + " holds a mark that does not verify under this key; run schemabrain"
                        + " audit verify.", null));
        return meta;
    }

    /** Takes the chain's head as this log's own; answers it. */
    Head begin() throws SQLException {
        synchronized (onConnection) {
            written = ChainRows.lastRow(connection);
            writtenCount = written.count();
            return written;
        }
    }

    /** How many rows this log's batches have committed, without waiting for a batch being written. */
    long writtenCount() {
        return writtenCount;
    }

    /** The head the next fsync covers; from then on the chain counts as this log's own again. */
    Unflushed takeUnflushed() {
        synchronized (onConnection) {
            Unflushed u = new Unflushed(written, ownChain);
            ownChain = true;
            return u;
        }
    }

    /** How many rows were written when this is called (0 before the log started). */
    long writtenSoFar() {
        synchronized (onConnection) {
            return written == null ? 0 : written.count();
        }
    }

    /** Writes {@code batch} in one transaction, then checks the witnesses if the chain moved; sets the rows' ids. */
    @Override
    public void write(List<GroupCommit.Pending> batch) throws AuditException {
        synchronized (onConnection) {
            stop.check();
            chain.checkSame();
            Head[] before = new Head[1];
            Head head = insertAll(batch, before);
            long id = head.count() - batch.size();
            for (GroupCommit.Pending p : batch) {
                p.id = ++id;
            }
            boolean continued = before[0].equals(written);
            // In a fleet another instance moving the head on is normal: only a head that went back is checked.
            boolean othersAppended = chain.shared() && before[0].count() >= written.count();
            written = head;
            writtenCount = head.count();
            if (!continued && !othersAppended) {
                // Another process appended, or rows were taken away: the witnesses must still be matched.
                ownChain = false;
                try {
                    witnesses.checkAll();
                } catch (AuditException e) {
                    throw stop.stop(e);
                }
            }
        }
    }

    /** Once true, always: the role columns are never taken away by SchemaBrain. */
    private volatile boolean hasRoleColumns;

    /** Inserts the batch after the chain's head, which it sets in {@code before}; answers the new head. */
    private Head insertAll(List<GroupCommit.Pending> batch, Head[] before) throws AuditException {
        Connection c = connection;
        try {
            return ChainRows.inTransaction(c, () -> {
                chain.lockHead(c);
                Head last = ChainRows.lastRow(c);
                before[0] = last;
                boolean roles = roleColumns(c);
                try (PreparedStatement st = c.prepareStatement(ChainRows.insert(roles))) {
                    for (GroupCommit.Pending p : batch) {
                        last = insert(st, last, p.entry, roles);
                    }
                    st.executeBatch();   // one round trip (a multi-row INSERT on PostgreSQL)
                }
                return last;
            });
        } catch (SQLException | RuntimeException e) {
            throw new AuditException("The audit log could not record a call to " + ClientText.clean(batch.get(0).entry.tool())
                    + (batch.size() > 1 ? " (and " + (batch.size() - 1) + " more)" : "") + ": " + e.getMessage(), e);
        }
    }

    /** Whether the log has the role columns (SQLite logs gain them at open; a PostgreSQL store with migration V13). */
    private boolean roleColumns(Connection c) throws SQLException {
        if (!hasRoleColumns) {
            hasRoleColumns = ChainRows.hasRoleColumns(c);
        }
        return hasRoleColumns;
    }

    /** Inserts {@code entry} after {@code last}; answers the new head. */
    private Head insert(PreparedStatement st, Head last, AuditEntry entry, boolean roles) throws SQLException {
        if (!roles && (entry.role() != null || !entry.rowFilters().isEmpty())) {
            throw new SQLException("the audit log has no role column yet, so a call under an access policy cannot be"
                    + " recorded; run 'schemabrain index' once with this build to migrate the store");
        }
        long id = last.count() + 1;
        String occurredAt = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.MILLIS));
        entry = withKeyedFingerprint(entry);
        KeyedMark m = mark;
        String hash = ChainRows.chainHash(key, last.hash(), m != null && m.boundFrom() == id ? m.binding() : null, id,
                occurredAt, entry);
        ChainRows.bind(st, id, occurredAt, entry, last.hash(), hash, roles);
        return new Head(id, hash);
    }

    /** The entry as the log keeps it: its SQL fingerprint keyed (see {@link SqlFingerprint}). */
    private AuditEntry withKeyedFingerprint(AuditEntry e) {
        return e.sqlFingerprint() == null ? e : new AuditEntry(e.sourceId(), e.caller(), e.tool(), e.phase(), e.status(),
                e.errorKind(), e.piiCategories(), e.argsHash(), SqlFingerprint.of(key, e.sqlFingerprint()), e.rowCount(),
                e.durationMs(), e.role(), e.rowFilters());
    }
}
