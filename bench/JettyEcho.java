// A bare Jetty server that answers every request with the same bytes: the floor under serve's HTTP answers, from
// the Jetty that serve itself embeds. bench/peers.py runs it beside serve with describe_table's own answer:
//
//   java -cp target/schemabrain.jar bench/JettyEcho.java PORT BODY_FILE [CONTENT_TYPE]
//
// One handler, no servlet, no filter: the request body is read and dropped, the fixed bytes go back.

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

public class JettyEcho {
    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java -cp target/schemabrain.jar bench/JettyEcho.java PORT BODY_FILE [CONTENT_TYPE]");
            System.exit(2);
        }
        byte[] body = Files.readAllBytes(Path.of(args[1]));
        String type = args.length > 2 ? args[2] : "application/json;charset=utf-8";
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(Integer.parseInt(args[0]));
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Content.Source.consumeAll(request);
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
                response.write(true, ByteBuffer.wrap(body), callback);
                return true;
            }
        });
        server.start();
        System.err.println("jetty-echo: " + body.length + " bytes on 127.0.0.1:" + args[0]);
        server.join();
    }
}
