package dev.loomlab.virtualpool;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.IOEvent;
import org.glassfish.grizzly.nio.NIOConnection;

/**
 * Answers an HTTP request the pool refuses with a 503 instead of a bare closed connection.
 * <p>
 * When {@code execute} throws, Grizzly's selector closes the connection, and the client sees a
 * reset. Grizzly hands the pool a task that reads the connection ({@code WorkerThreadIOStrategy}'s
 * runnable, with the connection and the I/O event in package-private fields); nothing of the request
 * has been read yet. So, on the selector thread and without blocking, this reads what the client sent,
 * and if that begins with an HTTP/1.x request line, writes a complete 503 with {@code Connection: close}
 * before Grizzly closes the connection. Anything else (a TLS handshake, HTTP/2, a request body, a task
 * of another shape) is left to Grizzly's close, as before.
 */
final class HttpRefusal {

    private static final Logger LOG = Logger.getLogger(HttpRefusal.class.getName());
    private static final int MAX_DRAIN_BYTES = 16 * 1024;
    private static final byte[] RESPONSE = response();

    private HttpRefusal() {
    }

    /** The task's connection and event, when the task is Grizzly's worker runnable. */
    private record GrizzlyTaskFields(Field connection, Field ioEvent) {
    }

    private static final ClassValue<Optional<GrizzlyTaskFields>> FIELDS = new ClassValue<>() {
        @Override
        protected Optional<GrizzlyTaskFields> computeValue(Class<?> type) {
            try {
                Field connection = type.getDeclaredField("connection");
                Field ioEvent = type.getDeclaredField("ioEvent");
                connection.setAccessible(true);
                ioEvent.setAccessible(true);
                return Optional.of(new GrizzlyTaskFields(connection, ioEvent));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Optional.empty();
            }
        }
    };

    /** Writes a 503 to the client of a refused Grizzly read task, if it is a plain HTTP/1.x request. */
    static void answerServiceUnavailable(Runnable task) {
        Optional<GrizzlyTaskFields> fields = FIELDS.get(task.getClass());
        if (fields.isEmpty()) {
            return;
        }
        try {
            Object connection = fields.get().connection().get(task);
            Object event = fields.get().ioEvent().get(task);
            if (event == IOEvent.READ && connection instanceof NIOConnection nio) {
                SelectableChannel channel = nio.getChannel();
                if (channel instanceof SocketChannel socket && !socket.isBlocking()) {
                    answer(socket);
                }
            }
        } catch (IllegalAccessException | RuntimeException | IOException e) {
            LOG.log(Level.FINE, "no 503 for a refused task; Grizzly closes the connection", e);
        }
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
