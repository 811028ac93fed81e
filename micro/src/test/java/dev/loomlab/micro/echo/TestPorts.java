package dev.loomlab.micro.echo;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Test servers on the micro module's test ports 18340..18359 (the lab reserves 18300..18399). */
final class TestPorts {

    static final int FIRST = 18340;
    static final int LAST = 18359;

    private TestPorts() {
    }

    static EchoServer echoServer(Duration latency, int bufferSize) throws IOException {
        return echoServer(latency, bufferSize, 1);
    }

    /** An echo server on {@code count} consecutive free test ports. */
    static EchoServer echoServer(Duration latency, int bufferSize, int count) throws IOException {
        for (int port = FIRST; port + count - 1 <= LAST; port++) {
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                addresses.add(loopback(port + i));
            }
            try {
                return new EchoServer(addresses, latency, bufferSize, 128);
            } catch (BindException busy) {
                // Another test run holds one of them; try further on.
            }
        }
        throw new BindException("no " + count + " free test ports in " + FIRST + ".." + LAST);
    }

    /** A port in the range where nothing listens right now. */
    static int unusedPort() throws IOException {
        for (int port = FIRST; port <= LAST; port++) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return probe.getLocalPort();
            } catch (BindException busy) {
                // try the next one
            }
        }
        throw new BindException("no free test port in " + FIRST + ".." + LAST);
    }

    static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }
}
