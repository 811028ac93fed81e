package dev.loomlab.micro.echo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Runs the {@link EchoServer} until the process is stopped (SIGTERM, Ctrl-C).
 * <pre>
 * java -cp benchmarks.jar dev.loomlab.micro.echo.EchoServerMain --port 18320 --latency-ms 1000
 *      [--ports 1] [--host 127.0.0.1] [--buffer 32] [--backlog 8192]
 * </pre>
 * Listens on {@code --ports} consecutive ports from {@code --port}. Prints one
 * {@code LISTENING host:ports} line when it accepts connections, and its counters when it stops.
 */
public final class EchoServerMain {

    private static final String USAGE = "usage: EchoServerMain --port N [--ports 1] [--host 127.0.0.1] "
            + "[--latency-ms 1000] [--buffer 32] [--backlog 8192]";

    private EchoServerMain() {
    }

    public static void main(String[] args) {
        EchoServer server;
        String host;
        try {
            CommandLine line = new CommandLine(args, Set.of("host", "port", "ports", "latency-ms", "buffer", "backlog"));
            host = line.text("host", "127.0.0.1");
            int port = (int) line.number("port", 1, 65535, 18320);
            int ports = (int) line.number("ports", 1, Math.min(64, 65536 - port), 1);
            Duration latency = Duration.ofMillis(line.number("latency-ms", 0, 600_000, 1000));
            int buffer = (int) line.number("buffer", 1, 1 << 20, 32);
            int backlog = (int) line.number("backlog", 1, 1 << 16, 8192);
            List<InetSocketAddress> addresses = new ArrayList<>();
            for (int i = 0; i < ports; i++) {
                addresses.add(new InetSocketAddress(host, port + i));
            }
            server = new EchoServer(addresses, latency, buffer, backlog);
        } catch (IllegalArgumentException e) {
            System.err.println("echo server: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        } catch (IOException e) {
            System.err.println("echo server: cannot listen: " + e.getMessage());
            System.exit(1);
            return;
        }
        EchoServer running = server;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.printf("STOPPED echoes=%d open=%d acceptFailures=%d%n",
                    running.echoesSent(), running.connectionsOpen(), running.acceptFailures());
            try {
                running.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "echo-server-shutdown"));
        // The server's own (non-daemon) selector thread keeps the process alive from here on.
        System.out.println("LISTENING " + host + ":" + server.ports());
        System.out.flush();
    }
}
