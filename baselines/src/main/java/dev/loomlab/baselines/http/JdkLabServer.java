package dev.loomlab.baselines.http;

import com.sun.net.httpserver.HttpServer;
import dev.loomlab.api.ServerDescription;
import dev.loomlab.baselines.api.FanoutTasks;
import dev.loomlab.baselines.api.LabApi;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** The lab endpoints on the JDK's own {@code com.sun.net.httpserver.HttpServer}, one thread strategy each. */
public final class JdkLabServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final ServerDescription description;
    private final FanoutTasks fanoutTasks;

    private JdkLabServer(HttpServer server, ExecutorService executor, ServerDescription description, FanoutTasks fanoutTasks) {
        this.server = server;
        this.executor = executor;
        this.description = description;
        this.fanoutTasks = fanoutTasks;
    }

    public static JdkLabServer start(JdkServerKind kind, ServerSettings settings) throws IOException {
        applyServerDefaults();
        ServerDescription description = kind.describe(settings.threads());
        HttpServer server = HttpServer.create(new InetSocketAddress(settings.host(), settings.port()), settings.backlog());
        ExecutorService executor = kind.executor(settings.threads());
        FanoutTasks fanoutTasks = kind.fanoutTasks(settings.threads());
        server.createContext("/", new ExchangeHandler(new LabApi(description, fanoutTasks)));
        server.setExecutor(executor);
        server.start();
        return new JdkLabServer(server, executor, description, fanoutTasks);
    }

    /**
     * The JDK server's defaults were chosen for a small embedded server, not for thousands of
     * keep-alive clients: it closes every idle connection beyond 200 (so a load generator with
     * more connections reconnects all the time) and leaves Nagle on (small answers wait for the
     * client's delayed ACK). Both are raised here unless set on the command line; they are read
     * once, when the server classes load.
     */
    private static void applyServerDefaults() {
        System.getProperties().putIfAbsent("sun.net.httpserver.maxIdleConnections", "20000");
        System.getProperties().putIfAbsent("sun.net.httpserver.nodelay", "true");
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String baseUrl() {
        return "http://" + server.getAddress().getHostString() + ":" + port();
    }

    public ServerDescription description() {
        return description;
    }

    /** Stops accepting, then interrupts whatever still sleeps: a stop never waits for a 60 s request. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        fanoutTasks.close();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
