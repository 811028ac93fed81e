package dev.loomlab.virtualpool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The 503 a refused HTTP request gets instead of a bare closed connection (which the client sees as
 * a reset). On the selector thread and without blocking, this reads what the client sent and, if it
 * begins with an HTTP/1.x request line, writes a complete 503 with {@code Connection: close}.
 * Anything else (a TLS handshake, HTTP/2, a request body) gets no answer, only the close.
 */
final class HttpRefusal {

    private static final int MAX_DRAIN_BYTES = 16 * 1024;
    private static final byte[] RESPONSE = response();

    private HttpRefusal() {
    }

    /** Reads the pending request from a non-blocking channel and answers 503 if it is HTTP/1.x. */
    static boolean answer(SocketChannel socket) throws IOException {
        ByteBuffer received = ByteBuffer.allocate(MAX_DRAIN_BYTES);
        // Take what has arrived: closing with unread input would send the client a reset, not the 503.
        while (received.hasRemaining() && socket.read(received) > 0) {
            Thread.onSpinWait();
        }
        if (!startsWithHttp1RequestLine(received.flip())) {
            return false;
        }
        ByteBuffer response = ByteBuffer.wrap(RESPONSE);
        // A fresh request leaves the send buffer empty, so the few bytes go in one or two writes.
        for (int attempt = 0; attempt < 8 && response.hasRemaining(); attempt++) {
            socket.write(response);
        }
        return !response.hasRemaining();
    }

    /** "METHOD target HTTP/1.x" up to the first line end; HTTP/2's "PRI * HTTP/2.0" does not match. */
    static boolean startsWithHttp1RequestLine(ByteBuffer bytes) {
        String head = StandardCharsets.ISO_8859_1.decode(bytes.duplicate()).toString();
        int lineEnd = head.indexOf("\r\n");
        return lineEnd > 0 && head.substring(0, lineEnd).matches("[A-Z]{3,16} \\S+ HTTP/1\\.[01]");
    }

    private static byte[] response() {
        String body = "{\"error\":\"server busy: the request pool is full or shutting down; retry later\"}";
        return ("HTTP/1.1 503 Service Unavailable\r\n"
                + "Content-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n"
                + "Retry-After: 1\r\n"
                + "Connection: close\r\n\r\n"
                + body).getBytes(StandardCharsets.ISO_8859_1);
    }
}
