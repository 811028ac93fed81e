package dev.loomlab.micro.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class EchoClientsTest {

    private static final Duration LATENCY = Duration.ofMillis(20);

    private static EchoSettings settings(int port, int connections, Duration duration) {
        return new EchoSettings(TestPorts.loopback(port), connections, 32, duration,
                Duration.ofSeconds(10), Duration.ofSeconds(5));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "platform", "virtual"})
    void echoesOverEveryConnectionForTheDurationAtTheServersPace(String name) throws Exception {
        try (EchoServer server = TestPorts.echoServer(LATENCY, 32)) {
            EchoResult result = EchoClientMain.client(name).run(settings(server.port(), 20, Duration.ofMillis(400)));

            assertTrue(result.complete(), result.failure());
            assertEquals(name, result.client());
            assertEquals(20, result.connectionsOpened());
            assertEquals(0, result.corrupted());
            assertEquals(0, result.errors());
            assertEquals(0, result.unfinished());
            // Every connection finished at least its first round trip ...
            assertTrue(result.echoes() >= 20, "echoes " + result.echoes());
            // ... and none can be faster than the server's latency allows.
            long mostPossible = 20 * (result.measured().toNanos() / LATENCY.toNanos() + 1);
            assertTrue(result.echoes() <= mostPossible, result.echoes() + " echoes > " + mostPossible);
            assertTrue(result.measured().compareTo(Duration.ofMillis(400)) >= 0, "measured " + result.measured());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "platform", "virtual"})
    void spreadsItsConnectionsOverEveryServerPort(String name) throws Exception {
        try (EchoServer server = TestPorts.echoServer(LATENCY, 32, 3)) {
            List<InetSocketAddress> addresses = server.ports().stream().map(TestPorts::loopback).toList();
            EchoSettings spread = new EchoSettings(addresses, 9, 32, Duration.ofMillis(100),
                    Duration.ofSeconds(10), Duration.ofSeconds(5));

            EchoResult result = EchoClientMain.client(name).run(spread);

            assertTrue(result.complete(), result.failure());
            assertEquals(9, result.connectionsOpened());
            assertEquals(0, result.corrupted());
            assertEquals(addresses.get(1), spread.server(4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "platform", "virtual"})
    void reportsHowFarItGotWhenNoServerListens(String name) throws Exception {
        int nobody = TestPorts.unusedPort();

        EchoResult result = EchoClientMain.client(name).run(settings(nobody, 5, Duration.ofMillis(100)));

        assertFalse(result.complete());
        assertTrue(result.failure().contains("Connection refused"), result.failure());
        assertEquals(0, result.connectionsOpened());
        assertEquals(0, result.echoes());
    }

    @Test
    void reportsHowFarItGotWhenNoMoreThreadsCanStart() throws Exception {
        List<Thread> started = new CopyOnWriteArrayList<>();
        AtomicInteger made = new AtomicInteger();
        ThreadFactory sixThreadsAtMost = task -> {
            if (made.incrementAndGet() > 6) {
                throw new OutOfMemoryError("unable to create native thread (simulated)");
            }
            Thread thread = Thread.ofPlatform().unstarted(task);
            started.add(thread);
            return thread;
        };
        try (EchoServer server = TestPorts.echoServer(LATENCY, 32)) {
            EchoResult result = new ThreadedEchoClient("platform", sixThreadsAtMost)
                    .run(settings(server.port(), 10, Duration.ofMillis(100)));

            assertFalse(result.complete());
            assertTrue(result.failure().startsWith("could not start thread 7 of 10"), result.failure());
            assertEquals(6, result.threadsStarted());
            assertEquals(0, result.echoes());
            for (Thread thread : started) {
                thread.join(Duration.ofSeconds(5));
                assertFalse(thread.isAlive(), thread + " outlived the run");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "platform", "virtual"})
    void countsAnswersThatDifferFromTheRequest(String name) throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(TestPorts.loopback(TestPorts.unusedPort()));
            Thread liar = Thread.ofVirtual().start(() -> answerWithZeros(listener));
            int port = ((InetSocketAddress) listener.getLocalAddress()).getPort();

            EchoResult result = EchoClientMain.client(name).run(settings(port, 1, Duration.ofMillis(100)));

            assertNull(result.failure());
            assertTrue(result.echoes() > 0);
            assertEquals(result.echoes(), result.corrupted());
            liar.interrupt();
        }
    }

    /** A broken "echo" server: answers every 32-byte request with 32 zero bytes. */
    private static void answerWithZeros(ServerSocketChannel listener) {
        try (SocketChannel connection = listener.accept()) {
            ByteBuffer request = ByteBuffer.allocate(32);
            while (true) {
                request.clear();
                while (request.hasRemaining()) {
                    if (connection.read(request) < 0) {
                        return;
                    }
                }
                connection.write(ByteBuffer.allocate(32));
            }
        } catch (IOException e) {
            // The client closed or the test ended.
        }
    }

    @Test
    void resultSaysWhatTheProcessUsed() {
        ProcessStats stats = ProcessStats.now();
        assertTrue(stats.cpu().toNanos() > 0);
        assertTrue(stats.peakRssKb() > 1000, "peak RSS " + stats.peakRssKb() + " kB");
        assertNotNull(EchoClientMain.toJson(
                EchoResult.failed("nio", 5, 0, 2, "could not \"open\" socket"), stats));
        assertTrue(EchoClientMain.toJson(EchoResult.failed("nio", 5, 0, 2, "could not \"open\" socket"), stats)
                .contains("\"failure\":\"could not \\\"open\\\" socket\""));
    }
}
