package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.glassfish.grizzly.PortRange;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;
import org.glassfish.grizzly.strategies.WorkerThreadIOStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bounded pool as the worker pool of a real Grizzly HTTP server (the selector and strategy
 * Payara uses): a burst beyond bound + queue gets exactly bound + queue answers of 200 and a 503 for
 * every other request, each connection one answer, and the handler runs once per admitted request.
 * A refusal thrown into Grizzly's selector broke this: the selector abandoned its pass over the ready
 * connections, and the next pass dispatched some of them again while their first task was queued.
 */
class GrizzlyRefusalTest {

    private static final int BOUND = 2;
    private static final int QUEUE = 2;
    private static final int BURST = 24;
    private static final Pattern STATUS_LINE = Pattern.compile("(?m)^HTTP/1\\.1 (\\d{3}) ");

    private final AtomicInteger handled = new AtomicInteger();
    private final List<LogRecord> selectorProblems = new CopyOnWriteArrayList<>();
    private final Logger selectorLog = Logger.getLogger("org.glassfish.grizzly.nio.SelectorRunner");
    private final Handler selectorProblemCollector = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                selectorProblems.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private HttpServer server;
    private BoundedVirtualThreadPool pool;

    /** Holds the selector thread (which calls execute) for a moment at the first task. */
    private static final class SlowToStartPool extends BoundedVirtualThreadPool {
        private final AtomicBoolean first = new AtomicBoolean(true);

        @Override
        public void execute(Runnable task) {
            if (first.getAndSet(false)) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.execute(task);
        }
    }

    @AfterEach
    void stop() {
        selectorLog.removeHandler(selectorProblemCollector);
        if (server != null) {
            server.shutdownNow();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void aBurstBeyondBoundAndQueueGetsOneAnswerPerConnectionAndRunsEachAdmittedRequestOnce() throws Exception {
        int port = startServer(1500);
        byte[] request = "GET /sleep HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        List<Socket> clients = new ArrayList<>();
        try {
            // The pool holds the selector for a moment at the first request (see SlowToStartPool) while the
            // others connect and send theirs: the selector then meets them all ready in one pass, the
            // pool filling up in the middle of it.
            for (int i = 0; i < BURST; i++) {
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
                socket.setSoTimeout(30_000);
                clients.add(socket);
                socket.getOutputStream().write(request);
            }
            Map<String, Integer> statuses = new TreeMap<>();
            for (Socket socket : clients) {
                List<String> answers = statusCodes(readAll(socket.getInputStream()));
                assertTrue(answers.size() <= 1, "one answer per connection, got " + answers);
                statuses.merge(answers.isEmpty() ? "none" : answers.get(0), 1, Integer::sum);
            }
            assertEquals(Map.of("200", BOUND + QUEUE, "503", BURST - BOUND - QUEUE), statuses, "answers by status");
            assertEquals(BOUND + QUEUE, handled.get(), "the handler ran once per admitted request");
            assertEquals(BURST - BOUND - QUEUE, pool.getRejected(), "refused requests");
            // A refusal never reaches the selector as an exception (Grizzly logs those as "doSelect exception").
            assertEquals(List.of(), selectorProblems.stream().map(r -> r.getMessage() + ": " + r.getThrown()).toList());
        } finally {
            for (Socket socket : clients) {
                socket.close();
            }
        }
    }

    private int startServer(long sleepMs) throws IOException {
        pool = new SlowToStartPool();
        pool.configure(null, GrizzlyConfig.listener("refusal-test"),
                GrizzlyConfig.threadPool("grizzly-refusal-pool", Integer.toString(BOUND), Integer.toString(QUEUE)));
        server = new HttpServer();
        NetworkListener listener = new NetworkListener("refusal-test", "127.0.0.1", new PortRange(19395, 19399));
        listener.getTransport().setIOStrategy(WorkerThreadIOStrategy.getInstance());
        listener.getTransport().setWorkerThreadPool(pool);
        server.addListener(listener);
        server.getServerConfiguration().addHttpHandler(new HttpHandler() {
            @Override
            public void service(Request request, Response response) throws Exception {
                handled.incrementAndGet();
                Thread.sleep(sleepMs);
                response.setContentType("text/plain");
                response.getWriter().write("slept");
            }
        }, "/sleep");
        selectorLog.addHandler(selectorProblemCollector);
        server.start();
        return listener.getPort();
    }

    private static List<String> statusCodes(String received) {
        List<String> codes = new ArrayList<>();
        Matcher matcher = STATUS_LINE.matcher(received);
        while (matcher.find()) {
            codes.add(matcher.group(1));
        }
        return codes;
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            in.transferTo(out);
        } catch (IOException reset) {
            // A connection reset ends the answer: what arrived before it is what the client got.
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
