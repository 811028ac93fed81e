package dev.loomlab.micro.jmh;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP server that answers {@code GET /io} with a short body after a fixed delay, so an
 * "IO task" is a real network round trip with a known wait and never leaves the machine.
 * <p>
 * The delay is scheduled, not slept: requests are read on the server's dispatcher thread and the
 * answers are written by one scheduler thread when they are due. The stub thus keeps two threads
 * whatever the concurrency, and its own threads do not blur the thread counts of the benchmark
 * that runs next to it in the same JVM.
 */
public final class DelayedHttpStub implements AutoCloseable {

    static final byte[] BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer server;
    private final ScheduledExecutorService answers;
    private final Duration delay;

    private DelayedHttpStub(HttpServer server, Duration delay) {
        this.server = server;
        this.delay = delay;
        this.answers = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "stub-answers");
            thread.setDaemon(true);
            return thread;
        });
        server.createContext("/io", this::answerLater);
        server.start();
    }

    /**
     * Starts the stub on 127.0.0.1 at the first port of {@code firstPort..lastPort} that is free
     * (0..0 for any free port).
     */
    public static DelayedHttpStub start(int firstPort, int lastPort, Duration delay) throws IOException {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        BindException lastFailure = null;
        for (int port = firstPort; port <= lastPort; port++) {
            try {
                InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
                // A deep accept queue: a benchmark op may open a thousand connections at once.
                return new DelayedHttpStub(HttpServer.create(address, 4096), delay);
            } catch (BindException e) {
                lastFailure = e;
            }
        }
        throw new BindException("no free port in " + firstPort + ".." + lastPort
                + (lastFailure == null ? "" : ": " + lastFailure.getMessage()));
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/io");
    }

    public Duration delay() {
        return delay;
    }

    private void answerLater(HttpExchange exchange) throws IOException {
        try (InputStream request = exchange.getRequestBody()) {
            request.readAllBytes();
        }
        answers.schedule(() -> answer(exchange), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private static void answer(HttpExchange exchange) {
        try (OutputStream body = exchange.getResponseBody()) {
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, BODY.length);
            body.write(BODY);
        } catch (IOException e) {
            // The client went away before its answer was due; nothing to deliver to.
            exchange.close();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        answers.shutdownNow();
    }
}
