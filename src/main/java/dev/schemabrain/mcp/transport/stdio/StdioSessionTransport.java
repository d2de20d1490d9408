package dev.schemabrain.mcp.transport.stdio;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * The one MCP session of a stdio server, fed by {@link StdinGuard} with messages it has already parsed
 * and checked. The SDK's own stdio transport reads stdin again character by character, parses each line
 * a second time and moves every message across two queues and two threads, in and out; here a message is
 * handled on the reader's thread and an answer is written on the thread that produced it, under the lock
 * the guard's own frames take, so frames never interleave.
 */
final class StdioSessionTransport implements McpServerTransportProvider, StdinGuard.Session {

    private static final Logger LOG = LoggerFactory.getLogger(StdioSessionTransport.class);

    private final McpJsonMapper json;
    private final OutputStream frames;
    private final InFlight inFlight = new InFlight();
    private volatile McpServerSession session;
    /** The id of the initialize answered before the server was built: the SDK's answer to it is not written again. */
    private volatile Object answeredEarly;

    StdioSessionTransport(McpJsonMapper json, OutputStream frames) {
        this.json = json;
        this.frames = frames;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        this.session = sessionFactory.create(new Transport());
    }

    /** The protocol versions the SDK's session speaks over this transport, newest last. */
    static List<String> protocolVersionsSpoken() {
        return new StdioSessionTransport(null, OutputStream.nullOutputStream()).protocolVersions();
    }

    @Override
    public void dropAnswerTo(Object id) {
        answeredEarly = id;
    }

    /** Hands one message to the session; the call returns once the session has taken it, not when it is answered. */
    @Override
    public void deliver(McpSchema.JSONRPCMessage message) {
        McpServerSession current = session;
        if (current == null) {
            LOG.warn("a message arrived before the MCP session was set up; it was dropped");
            return;
        }
        inFlight.started();
        current.handle(message)
                .doFinally(signal -> inFlight.ended())
                .subscribe(null, e -> LOG.warn("handling a message failed: {}", e.getMessage()));
    }

    /** Waits until every delivered message has been answered, or {@code limit} passes; returns whether all were. */
    boolean awaitAnswered(Duration limit) throws InterruptedException {
        return inFlight.await(limit);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        return current == null ? Mono.error(new IllegalStateException("No session to notify"))
                : current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession current = session;
        return current == null ? Mono.empty() : current.closeGracefully();
    }

    private final class Transport implements McpServerTransport {

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> write(message));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return json.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {
        }
    }

    /** Compact JSON never holds a raw newline (one inside a string is escaped), so one frame is one line. */
    private void write(McpSchema.JSONRPCMessage message) {
        Object early = answeredEarly;
        if (early != null && message instanceof McpSchema.JSONRPCResponse r && early.equals(r.id())) {
            answeredEarly = null;
            return;
        }
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(message);
        } catch (IOException e) {
            throw new IllegalStateException("an answer could not be serialized: " + e.getMessage(), e);
        }
        synchronized (frames) {
            try {
                frames.write(bytes);
                frames.write('\n');
                frames.flush();
            } catch (IOException e) {
                LOG.debug("writing a frame failed (the client has gone?): {}", e.getMessage());
            }
        }
    }
}
