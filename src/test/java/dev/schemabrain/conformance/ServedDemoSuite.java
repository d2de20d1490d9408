package dev.schemabrain.conformance;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** A conformance IT's one server: the pinned Node packages installed, the demo served by the packaged jar over HTTP. */
abstract class ServedDemoSuite {

    @TempDir
    static Path dir;
    static ServedDemo server;

    @BeforeAll
    static void serve() throws Exception {
        NodeToolchain.install();
        server = ServedDemo.start(dir);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }
}
