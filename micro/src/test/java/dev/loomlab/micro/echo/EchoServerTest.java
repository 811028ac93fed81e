package dev.loomlab.micro.echo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class EchoServerTest {

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static void writeFully(SocketChannel channel, byte[] data) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(data);
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }

    private static byte[] readFully(SocketChannel channel, int size) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(size);
        while (in.hasRemaining()) {
            if (channel.read(in) < 0) {
                throw new IOException("closed after " + in.position() + " of " + size + " bytes");
            }
        }
        return in.array();
    }

    @Test
    void echoesEveryByteIntactAlsoWhenAMessageSpansManyReads() throws Exception {
        // A 32-byte read buffer: the 10 kB message comes back in hundreds of delayed chunks.
        try (EchoServer server = TestPorts.echoServer(Duration.ofMillis(5), 32);
             SocketChannel client = SocketChannel.open(TestPorts.loopback(server.port()))) {
            byte[] message = randomBytes(10_000, 1);

            writeFully(client, message);

            assertArrayEquals(message, readFully(client, message.length));
        }
    }

    @Test
    void keepsConnectionsApart() throws Exception {
        try (EchoServer server = TestPorts.echoServer(Duration.ofMillis(20), 64);
             SocketChannel first = SocketChannel.open(TestPorts.loopback(server.port()));
             SocketChannel second = SocketChannel.open(TestPorts.loopback(server.port()))) {
            byte[] one = randomBytes(500, 2);
            byte[] two = randomBytes(700, 3);

            writeFully(first, one);
            writeFully(second, two);

            assertArrayEquals(two, readFully(second, two.length));
            assertArrayEquals(one, readFully(first, one.length));
        }
    }

    @Test
    void neverEchoesBeforeTheConfiguredLatency() throws Exception {
        Duration latency = Duration.ofMillis(150);
        try (EchoServer server = TestPorts.echoServer(latency, 32);
             SocketChannel client = SocketChannel.open(TestPorts.loopback(server.port()))) {
            for (int round = 0; round < 3; round++) {
                byte[] message = randomBytes(32, round);
                long sent = System.nanoTime();
                writeFully(client, message);
                byte[] answer = readFully(client, message.length);
                long roundTrip = System.nanoTime() - sent;

                assertArrayEquals(message, answer);
                assertTrue(roundTrip >= latency.toNanos(),
                        "round trip " + roundTrip / 1e6 + " ms is shorter than the latency " + latency.toMillis() + " ms");
            }
        }
    }

    @Test
    void zeroLatencyEchoesAtOnce() throws Exception {
        try (EchoServer server = TestPorts.echoServer(Duration.ZERO, 32);
             SocketChannel client = SocketChannel.open(TestPorts.loopback(server.port()))) {
            byte[] message = randomBytes(100, 4);
            writeFully(client, message);
            assertArrayEquals(message, readFully(client, message.length));
            assertEquals(1, server.connectionsOpen());
        }
    }

    @Test
    void forgetsAConnectionTheClientClosed() throws Exception {
        try (EchoServer server = TestPorts.echoServer(Duration.ZERO, 32)) {
            SocketChannel client = SocketChannel.open(TestPorts.loopback(server.port()));
            writeFully(client, new byte[]{1, 2, 3});
            readFully(client, 3);
            assertEquals(1, server.connectionsOpen());

            client.close();

            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (server.connectionsOpen() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, server.connectionsOpen());
        }
    }

    @Test
    void listensAndEchoesOnEveryGivenPort() throws Exception {
        try (EchoServer server = TestPorts.echoServer(Duration.ofMillis(5), 32, 3)) {
            assertEquals(3, server.ports().size());
            for (int port : server.ports()) {
                try (SocketChannel client = SocketChannel.open(TestPorts.loopback(port))) {
                    byte[] message = randomBytes(64, port);
                    writeFully(client, message);
                    assertArrayEquals(message, readFully(client, message.length));
                }
            }
        }
    }

    @Test
    void rejectsANegativeLatency() {
        assertThrows(IllegalArgumentException.class, () -> TestPorts.echoServer(Duration.ofMillis(-1), 32));
    }
}
