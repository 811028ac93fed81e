package dev.loomlab.micro.echo;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A non-blocking echo server on one selector thread that sends every received chunk back after
 * a fixed latency, so from the client's side each echo looks like a network round trip of that
 * latency.
 * <p>
 * The delay is scheduled, never slept: received chunks wait in a queue with their due time and
 * the selector's timeout is set to the earliest due time, so one thread serves any number of
 * connections and still answers on time. Because the latency is the same for every chunk, chunks
 * fall due in the order they arrived and a plain FIFO queue is already sorted by due time.
 * <p>
 * When the process runs out of file descriptors, {@code accept} fails; the server then stops
 * accepting for a moment instead of spinning on a listening socket that stays ready.
 * <p>
 * It can listen on several ports at once. Clients that spread their connections over them keep
 * the number of connections per destination port low, which matters on loopback: Linux picks an
 * ephemeral port for each {@code connect} by searching for a free 4-tuple to that destination,
 * and the search becomes a CPU hog once tens of thousands of connections go to one port.
 */
public final class EchoServer implements AutoCloseable {

    private static final long ACCEPT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final long latencyNanos;
    private final Selector selector;
    private final List<ServerSocketChannel> listeners = new ArrayList<>();
    private final List<SelectionKey> acceptKeys = new ArrayList<>();
    private final ByteBuffer readBuffer;
    private final ArrayDeque<DelayedEcho> pending = new ArrayDeque<>();
    private final Thread loop;
    private final AtomicLong connectionsOpen = new AtomicLong();
    private final AtomicLong echoesSent = new AtomicLong();
    private final AtomicLong acceptFailures = new AtomicLong();
    private volatile boolean running = true;
    private long acceptPausedUntil;

    /** A received chunk and the moment it may be sent back. */
    private record DelayedEcho(Connection connection, byte[] data, long dueNanos) {
    }

    /** One client connection and the bytes due to it that the socket did not take yet. */
    private static final class Connection {
        final SocketChannel channel;
        final SelectionKey key;
        ByteBuffer unsent;

        Connection(SocketChannel channel, SelectionKey key) {
            this.channel = channel;
            this.key = key;
        }
    }

    /** Binds one address and starts serving at once; see {@link #EchoServer(List, Duration, int, int)}. */
    public EchoServer(InetSocketAddress address, Duration latency, int bufferSize, int backlog) throws IOException {
        this(List.of(address), latency, bufferSize, backlog);
    }

    /**
     * Binds and starts serving at once.
     *
     * @param addresses  where to listen, at least one (port 0 for any free port)
     * @param latency    delay between receiving a chunk and sending it back, at least 0
     * @param bufferSize largest chunk read at once, at least 1
     * @param backlog    accept queue length asked of the kernel (capped by net.core.somaxconn)
     */
    public EchoServer(List<InetSocketAddress> addresses, Duration latency, int bufferSize, int backlog)
            throws IOException {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("at least one address to listen on is needed");
        }
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        if (bufferSize < 1) {
            throw new IllegalArgumentException("buffer size must be at least 1, was " + bufferSize);
        }
        this.latencyNanos = latency.toNanos();
        this.readBuffer = ByteBuffer.allocateDirect(bufferSize);
        this.selector = Selector.open();
        try {
            for (InetSocketAddress address : addresses) {
                ServerSocketChannel listener = ServerSocketChannel.open();
                listeners.add(listener);
                listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                listener.bind(address, backlog);
                listener.configureBlocking(false);
                acceptKeys.add(listener.register(selector, SelectionKey.OP_ACCEPT));
            }
        } catch (IOException e) {
            for (ServerSocketChannel listener : listeners) {
                closeQuietly(listener);
            }
            selector.close();
            throw e;
        }
        loop = new Thread(this::serve, "echo-server");
        loop.start();
    }

    /** The first listening port. */
    public int port() {
        return ports().get(0);
    }

    public List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        for (ServerSocketChannel listener : listeners) {
            ports.add(listener.socket().getLocalPort());
        }
        return ports;
    }

    public long connectionsOpen() {
        return connectionsOpen.get();
    }

    public long echoesSent() {
        return echoesSent.get();
    }

    public long acceptFailures() {
        return acceptFailures.get();
    }

    private void serve() {
        try {
            while (running) {
                long timeout = selectTimeoutMillis();
                if (timeout < 0) {
                    selector.selectNow();
                } else {
                    selector.select(timeout);
                }
                Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
                while (ready.hasNext()) {
                    SelectionKey key = ready.next();
                    ready.remove();
                    handle(key);
                }
                sendDueEchoes();
                resumeAcceptingWhenPauseIsOver();
            }
        } catch (IOException | ClosedSelectorException e) {
            if (running) {
                System.err.println("echo server stopped: " + e);
            }
        } finally {
            closeAll();
        }
    }

    /**
     * Milliseconds until the oldest echo is due (rounded up, never early) or an accept pause ends;
     * 0 to wait for sockets only, -1 when something is due already.
     */
    private long selectTimeoutMillis() {
        long now = System.nanoTime();
        long wakeAt = Long.MAX_VALUE;
        if (!pending.isEmpty()) {
            wakeAt = pending.peekFirst().dueNanos();
        }
        if (acceptPausedUntil != 0) {
            wakeAt = Math.min(wakeAt, acceptPausedUntil);
        }
        if (wakeAt == Long.MAX_VALUE) {
            return 0; // no deadline: block until a socket is ready
        }
        long waitNanos = wakeAt - now;
        return waitNanos <= 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(waitNanos + 999_999);
    }

    private void handle(SelectionKey key) {
        if (!key.isValid()) {
            return;
        }
        if (key.channel() instanceof ServerSocketChannel listener) {
            acceptAll(listener);
            return;
        }
        Connection connection = (Connection) key.attachment();
        try {
            if (key.isReadable()) {
                read(connection);
            }
            if (key.isValid() && key.isWritable()) {
                flush(connection);
            }
        } catch (IOException e) {
            close(connection);
        }
    }

    private void acceptAll(ServerSocketChannel listener) {
        while (true) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                // Typically "Too many open files": the connection stays in the kernel's queue.
                acceptFailures.incrementAndGet();
                for (SelectionKey acceptKey : acceptKeys) {
                    acceptKey.interestOps(0);
                }
                acceptPausedUntil = System.nanoTime() + ACCEPT_PAUSE_NANOS;
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                key.attach(new Connection(channel, key));
                connectionsOpen.incrementAndGet();
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    private void resumeAcceptingWhenPauseIsOver() {
        if (acceptPausedUntil != 0 && System.nanoTime() - acceptPausedUntil >= 0) {
            acceptPausedUntil = 0;
            for (SelectionKey acceptKey : acceptKeys) {
                acceptKey.interestOps(SelectionKey.OP_ACCEPT);
            }
        }
    }

    private void read(Connection connection) throws IOException {
        readBuffer.clear();
        int n = connection.channel.read(readBuffer);
        if (n < 0) {
            close(connection);
            return;
        }
        if (n > 0) {
            byte[] chunk = new byte[n];
            readBuffer.flip().get(chunk);
            pending.addLast(new DelayedEcho(connection, chunk, System.nanoTime() + latencyNanos));
        }
    }

    private void sendDueEchoes() {
        long now = System.nanoTime();
        while (!pending.isEmpty() && now - pending.peekFirst().dueNanos() >= 0) {
            DelayedEcho echo = pending.pollFirst();
            Connection connection = echo.connection();
            if (!connection.channel.isOpen()) {
                continue;
            }
            connection.unsent = append(connection.unsent, echo.data());
            try {
                flush(connection);
                echoesSent.incrementAndGet();
            } catch (IOException e) {
                close(connection);
            }
        }
    }

    /** Writes what the socket takes; asks to be told when it can take the rest. */
    private void flush(Connection connection) throws IOException {
        ByteBuffer unsent = connection.unsent;
        if (unsent != null) {
            connection.channel.write(unsent);
            if (!unsent.hasRemaining()) {
                connection.unsent = null;
            }
        }
        connection.key.interestOps(connection.unsent == null
                ? SelectionKey.OP_READ
                : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
    }

    private static ByteBuffer append(ByteBuffer unsent, byte[] data) {
        if (unsent == null) {
            return ByteBuffer.wrap(data);
        }
        ByteBuffer joined = ByteBuffer.allocate(unsent.remaining() + data.length);
        joined.put(unsent).put(data).flip();
        return joined;
    }

    private void close(Connection connection) {
        if (connection.channel.isOpen()) {
            connectionsOpen.decrementAndGet();
        }
        connection.key.cancel();
        closeQuietly(connection.channel);
    }

    private void closeAll() {
        for (SelectionKey key : List.copyOf(selector.keys())) {
            closeQuietly(key.channel());
        }
        closeQuietly(selector);
        connectionsOpen.set(0);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing on the way out: nothing useful left to do with a failure.
        }
    }

    /** Stops the selector thread and closes every connection and the listening socket. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        selector.wakeup();
        loop.join(TimeUnit.SECONDS.toMillis(10));
    }
}
