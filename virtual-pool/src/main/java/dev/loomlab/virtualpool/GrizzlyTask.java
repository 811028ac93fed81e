package dev.loomlab.virtualpool;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.IOEvent;
import org.glassfish.grizzly.nio.NIOConnection;

/**
 * A task Grizzly's selector hands to the pool: {@code WorkerThreadIOStrategy}'s runnable, which
 * processes one I/O event (a READ: the connection has bytes, nothing of them read yet; a CLOSED:
 * the connection is gone) of one connection. The pool reaches the event and the connection through
 * the runnable's two package-private fields; if a Grizzly version renames them, tasks are treated as
 * plain {@code Runnable}s.
 */
final class GrizzlyTask {

    private static final Logger LOG = Logger.getLogger(GrizzlyTask.class.getName());

    private record Fields(Field connection, Field ioEvent) {
    }

    private static final ClassValue<Optional<Fields>> FIELDS = new ClassValue<>() {
        @Override
        protected Optional<Fields> computeValue(Class<?> type) {
            try {
                Field connection = type.getDeclaredField("connection");
                Field ioEvent = type.getDeclaredField("ioEvent");
                connection.setAccessible(true);
                ioEvent.setAccessible(true);
                return Optional.of(new Fields(connection, ioEvent));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return Optional.empty();
            }
        }
    };

    private final NIOConnection connection;
    private final IOEvent event;

    private GrizzlyTask(NIOConnection connection, IOEvent event) {
        this.connection = connection;
        this.event = event;
    }

    /** The task's connection and event, when it is Grizzly's I/O-event runnable. */
    static Optional<GrizzlyTask> of(Runnable task) {
        Optional<Fields> fields = FIELDS.get(task.getClass());
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        try {
            Object connection = fields.get().connection().get(task);
            Object event = fields.get().ioEvent().get(task);
            if (connection instanceof NIOConnection nio && event instanceof IOEvent ioEvent) {
                return Optional.of(new GrizzlyTask(nio, ioEvent));
            }
        } catch (IllegalAccessException | RuntimeException e) {
            LOG.log(Level.FINE, "not a Grizzly I/O task", e);
        }
        return Optional.empty();
    }

    /** Grizzly's close processing for a connection that is already gone: bookkeeping, not a request. */
    boolean isClose() {
        return event == IOEvent.CLOSED;
    }

    /**
     * Refuses the task the way a server refuses a request: for a READ, a 503 if the client sent an
     * HTTP/1.x request (see {@link HttpRefusal}), then the connection is closed. Called on the selector
     * thread, instead of throwing: an exception thrown into Grizzly's selector abandons the rest of its
     * pass over the ready connections, and the next pass dispatched READs again for connections whose
     * first task was still queued (two tasks on one connection; a 503 to a request already admitted).
     */
    void refuse() {
        if (event != IOEvent.READ) {
            return; // a CLOSED event after shutdown: the connection is gone already
        }
        SelectableChannel channel = connection.getChannel();
        if (channel instanceof SocketChannel socket && !socket.isBlocking()) {
            try {
                HttpRefusal.answer(socket);
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "no 503 for a refused request; the connection is closed", e);
            }
        }
        connection.closeSilently();
    }

    @Override
    public String toString() {
        return event + " " + connection;
    }
}
