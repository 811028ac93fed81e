package dev.loomlab.micro.echo;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs one echo client once and prints one {@code RESULT {json}} line: what the run achieved
 * ({@link EchoResult}) and what the process used (CPU time, peak RSS, peak platform threads).
 * <pre>
 * java -cp benchmarks.jar dev.loomlab.micro.echo.EchoClientMain --client nio|platform|virtual
 *      --port 18320 --connections 1000 [--ports 1] [--host 127.0.0.1] [--message-size 32]
 *      [--duration-ms 10000] [--connect-timeout-ms 60000] [--drain-timeout-ms 30000]
 * </pre>
 * With {@code --ports N} the connections are spread over the N ports from {@code --port} on.
 * Exit status: 0 when the run completed, 3 when it stopped early (no thread or socket left; the
 * RESULT line says how far it got), 2 for bad arguments.
 */
public final class EchoClientMain {

    static final int EXIT_INCOMPLETE = 3;

    private static final List<String> CLIENTS = List.of("nio", "platform", "virtual");
    private static final String USAGE = "usage: EchoClientMain --client nio|platform|virtual --port N "
            + "--connections C [--ports 1] [--host 127.0.0.1] [--message-size 32] [--duration-ms 10000] "
            + "[--connect-timeout-ms 60000] [--drain-timeout-ms 30000]";

    private EchoClientMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EchoClient client;
        EchoSettings settings;
        try {
            CommandLine line = new CommandLine(args, Set.of("client", "host", "port", "ports", "connections",
                    "message-size", "duration-ms", "connect-timeout-ms", "drain-timeout-ms"));
            client = client(line.choice("client", CLIENTS, null));
            String host = line.text("host", "127.0.0.1");
            int port = (int) line.number("port", 1, 65535, 18320);
            int ports = (int) line.number("ports", 1, Math.min(64, 65536 - port), 1);
            List<InetSocketAddress> servers = new ArrayList<>();
            for (int i = 0; i < ports; i++) {
                servers.add(new InetSocketAddress(host, port + i));
            }
            settings = new EchoSettings(servers,
                    (int) line.number("connections", 1, 1_000_000, 100),
                    (int) line.number("message-size", 1, 1 << 20, 32),
                    Duration.ofMillis(line.number("duration-ms", 0, 3_600_000, 10_000)),
                    Duration.ofMillis(line.number("connect-timeout-ms", 1, 3_600_000, 60_000)),
                    Duration.ofMillis(line.number("drain-timeout-ms", 0, 3_600_000, 30_000)));
        } catch (IllegalArgumentException e) {
            System.err.println("echo client: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        EchoResult result = client.run(settings);
        System.out.println("RESULT " + toJson(result, ProcessStats.now()));
        System.out.flush();
        // System.exit, not a return: after a failed run, stuck threads must not keep the JVM alive.
        System.exit(result.complete() ? 0 : EXIT_INCOMPLETE);
    }

    static EchoClient client(String name) {
        return switch (name) {
            case "nio" -> new NioEchoClient();
            case "platform" -> ThreadedEchoClient.platform();
            case "virtual" -> ThreadedEchoClient.virtual();
            default -> throw new IllegalArgumentException("unknown client " + name);
        };
    }

    static String toJson(EchoResult result, ProcessStats stats) {
        return String.format(Locale.ROOT,
                "{\"client\":\"%s\",\"connectionsWanted\":%d,\"threadsStarted\":%d,\"connectionsOpened\":%d,"
                        + "\"echoes\":%d,\"corrupted\":%d,\"errors\":%d,\"unfinished\":%d,\"seconds\":%.3f,"
                        + "\"throughput\":%.1f,\"complete\":%s,\"failure\":%s,"
                        + "\"cpuSeconds\":%.3f,\"peakRssKb\":%d,\"peakPlatformThreads\":%d}",
                result.client(), result.connectionsWanted(), result.threadsStarted(), result.connectionsOpened(),
                result.echoes(), result.corrupted(), result.errors(), result.unfinished(),
                result.measured().toNanos() / 1e9, result.throughput(), result.complete(),
                jsonString(result.failure()),
                stats.cpu().toNanos() / 1e9, stats.peakRssKb(), stats.peakPlatformThreads());
    }

    private static String jsonString(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
