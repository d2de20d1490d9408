package dev.schemabrain.console;

import dev.schemabrain.served.CatalogProvider;
import dev.schemabrain.mcp.transport.http.HttpOptions;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;


/** The console's embedded Jetty: one servlet, on a loopback address only. */
public final class ConsoleServer implements AutoCloseable {

    private final Server jetty;
    private final ConsoleSessions sessions;
    private final String host;

    private ConsoleServer(Server jetty, ConsoleSessions sessions, String host) {
        this.jetty = jetty;
        this.sessions = sessions;
        this.host = host;
    }

    /** Whether {@code host} is a loopback address: the only kind the console binds in this version. */
    public static boolean loopback(String host) {
        return HttpOptions.isLoopback(host);
    }

    static ConsoleServer start(String host, int port, ConsoleSessions sessions, DraftReview review, AuditTimeline audit,
                               CatalogProvider catalogs, PolicyRoutes policies) throws Exception {
        if (!loopback(host)) {
            throw new IllegalArgumentException("the console listens on loopback only");
        }
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("schemabrain-console");
        Server jetty = new Server(threads);
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new ConsoleServlet(sessions, review, audit, policies)), "/*");
        jetty.setHandler(context);
        jetty.setStopTimeout(2_000);
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            throw e;
        }
        return new ConsoleServer(jetty, sessions, host);
    }

    public int port() {
        return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /** The address to open once: it carries the one-time token, so only the terminal that started the console shows it. */
    public String loginUrl() {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + shown + ":" + port() + "/login?token=" + sessions.loginToken();
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        try {
            jetty.stop();
        } catch (Exception e) {
            // Stopping a server that failed half-way: nothing is left to release that the JVM's exit does not.
        }
    }
}
