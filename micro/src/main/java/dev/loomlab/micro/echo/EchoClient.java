package dev.loomlab.micro.echo;

/**
 * Opens the asked-for persistent connections, waits until all are up, then echoes over each in a
 * loop (next request as soon as the answer is in) for the set duration, and lets the requests
 * still in flight come back. Never throws for resource exhaustion: a run that cannot get a thread
 * or a socket ends early and returns a result that says how far it got.
 */
public interface EchoClient {

    /** nio, platform or virtual: how the client is named on command lines and in results. */
    String name();

    EchoResult run(EchoSettings settings) throws InterruptedException;
}
