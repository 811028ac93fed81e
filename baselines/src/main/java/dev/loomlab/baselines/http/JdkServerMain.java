package dev.loomlab.baselines.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one JDK server in the foreground until the process is stopped (Ctrl-C, SIGTERM).
 * {@code java -Dport=8080 -Dthreads=10000 -jar baselines.jar executor}
 */
public final class JdkServerMain {

    private JdkServerMain() {
    }

    /** @throws IllegalArgumentException for bad settings, which the launcher reports as a usage error */
    public static void run(JdkServerKind kind) throws InterruptedException {
        ServerSettings settings = ServerSettings.fromSystemProperties();
        JdkLabServer server;
        try {
            server = JdkLabServer.start(kind, settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stop-server"));
        System.out.println(server.description().name() + ": " + server.description().description());
        System.out.println("ready: " + server.baseUrl() + "/api/sleep?ms=100&depth=100  (pid " + ProcessHandle.current().pid()
                + ", Java " + Runtime.version() + ")");
        System.out.flush();
        stopped.await();
    }
}
