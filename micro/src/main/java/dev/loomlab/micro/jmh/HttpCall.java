package dev.loomlab.micro.jmh;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.concurrent.Callable;

/**
 * The IO task: one blocking HTTP GET, answered after the stub's delay.
 * <p>
 * {@link HttpURLConnection} reads the socket in the calling thread, so the thread really blocks
 * in a socket read: a platform thread sleeps in the kernel, a virtual thread unmounts and lets
 * its carrier run others. Connections are kept alive and reused (the fork raises
 * {@code http.maxConnections}), so an op measures waiting, not TCP handshakes or port exhaustion.
 */
public final class HttpCall implements Callable<Long> {

    private final URI target;

    public HttpCall(URI target) {
        this.target = target;
    }

    /** Returns the number of body bytes received. */
    @Override
    public Long call() throws IOException {
        HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
        int status = connection.getResponseCode();
        if (status != 200) {
            connection.disconnect();
            throw new IOException("GET " + target + " answered " + status);
        }
        // Reading the body to the end is what hands the connection back to the keep-alive cache.
        try (InputStream body = connection.getInputStream()) {
            return (long) body.readAllBytes().length;
        }
    }
}
