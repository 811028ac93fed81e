package dev.loomlab.micro.echo;

import java.time.Duration;

/**
 * What an echo client run achieved. A run that could not open every connection (no thread, no
 * socket, no answer in time) has a {@code failure} and says how far it got; it measured nothing.
 *
 * @param client             nio, platform or virtual
 * @param connectionsWanted  connections asked for
 * @param threadsStarted     client threads started for connections (0 for the single-threaded NIO client)
 * @param connectionsOpened  connections that came up
 * @param echoes             completed echo round trips
 * @param corrupted          echoes whose bytes differed from what was sent
 * @param errors             connections that failed while echoing
 * @param unfinished         connections whose last echo had not come back by the drain timeout
 * @param measured           from the moment all connections were up until the last echo came back
 * @param failure            why the run stopped before echoing, or null
 */
public record EchoResult(String client, int connectionsWanted, int threadsStarted, int connectionsOpened,
                         long echoes, long corrupted, long errors, int unfinished, Duration measured,
                         String failure) {

    public boolean complete() {
        return failure == null;
    }

    /** Echo round trips per second over the measured time. */
    public double throughput() {
        double seconds = measured.toNanos() / 1e9;
        return seconds > 0 ? echoes / seconds : 0;
    }

    static EchoResult failed(String client, int wanted, int threadsStarted, int opened, String failure) {
        return new EchoResult(client, wanted, threadsStarted, opened, 0, 0, 0, 0, Duration.ZERO, failure);
    }
}
