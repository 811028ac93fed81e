package dev.loomlab.micro.echo;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * What an echo client run is asked to do.
 *
 * @param servers        the echo server's addresses; connection i goes to servers[i mod n]
 * @param connections    persistent connections to open before echoing starts
 * @param messageSize    bytes per echo request
 * @param duration       how long to keep sending new requests once all connections are up
 * @param connectTimeout how long all connections may take to come up before the run gives up
 * @param drainTimeout   how long requests still in flight at the end may take to come back
 */
public record EchoSettings(List<InetSocketAddress> servers, int connections, int messageSize, Duration duration,
                           Duration connectTimeout, Duration drainTimeout) {

    public EchoSettings(InetSocketAddress server, int connections, int messageSize, Duration duration,
                        Duration connectTimeout, Duration drainTimeout) {
        this(List.of(server), connections, messageSize, duration, connectTimeout, drainTimeout);
    }

    public EchoSettings {
        servers = List.copyOf(servers);
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("at least one server address is needed");
        }
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be at least 1, was " + connections);
        }
        if (messageSize < 1) {
            throw new IllegalArgumentException("message size must be at least 1, was " + messageSize);
        }
        if (duration.isNegative() || connectTimeout.isNegative() || drainTimeout.isNegative()) {
            throw new IllegalArgumentException("durations must not be negative");
        }
    }

    /** Where connection number {@code connection} goes: the addresses in turn. */
    public InetSocketAddress server(int connection) {
        return servers.get(connection % servers.size());
    }
}
