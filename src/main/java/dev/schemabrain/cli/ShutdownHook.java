package dev.schemabrain.cli;

/**
 * A JVM shutdown hook for as long as a command runs. Closing it removes the hook, so a command run in process (a
 * test, a host embedding the CLI) leaves none behind to run again at the JVM's exit; when the JVM is already stopping,
 * the hook stays and runs.
 */
final class ShutdownHook implements AutoCloseable {

    private final Thread thread;

    private ShutdownHook(Thread thread) {
        this.thread = thread;
    }

    static ShutdownHook register(String name, Runnable action) {
        Thread thread = new Thread(action, name);
        Runtime.getRuntime().addShutdownHook(thread);
        return new ShutdownHook(thread);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(thread);
        } catch (IllegalStateException stopping) {
            // The JVM is stopping: the hook is running or about to, as it should.
        }
    }
}
