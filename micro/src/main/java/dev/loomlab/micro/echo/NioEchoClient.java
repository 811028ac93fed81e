package dev.loomlab.micro.echo;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The single-threaded non-blocking echo client: one selector drives every connection. It connects
 * them all, waits until all are up, then keeps one request in flight per connection: when an
 * answer is complete, the next request goes out at once, until the duration is over; then it
 * waits for the answers still on their way.
 * <p>
 * The one thread never blocks on a socket, so a connection costs a file descriptor and a few
 * buffers, nothing more. A socket that cannot be opened ends the run before echoing starts, with
 * a result that says how far it got.
 */
public final class NioEchoClient implements EchoClient {

    /** How long connections already under way may still complete once the run has failed. */
    private static final Duration SETTLE_AFTER_FAILURE = Duration.ofSeconds(5);

    @Override
    public String name() {
        return "nio";
    }

    @Override
    public EchoResult run(EchoSettings settings) throws InterruptedException {
        List<Connection> connections = new ArrayList<>(settings.connections());
        try (Selector selector = Selector.open()) {
            String failure = connectAll(settings, selector, connections);
            if (failure != null) {
                return EchoResult.failed(name(), settings.connections(), 0, countConnected(connections), failure);
            }
            return echo(settings, selector, connections);
        } catch (IOException e) {
            return EchoResult.failed(name(), settings.connections(), 0, countConnected(connections),
                    "selector failed: " + e);
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
    }

    /**
     * Returns why not every connection came up, or null when all did. When a socket cannot be
     * opened, the connections already started are still completed (briefly), so the result
     * can say how many came up.
     */
    private static String connectAll(EchoSettings settings, Selector selector, List<Connection> connections)
            throws IOException, InterruptedException {
        int wanted = settings.connections();
        String failure = null;
        for (int i = 0; i < wanted && failure == null; i++) {
            SocketChannel channel;
            try {
                channel = SocketChannel.open();
            } catch (IOException e) {
                failure = "could not open socket " + (i + 1) + " of " + wanted + ": " + e;
                break;
            }
            Connection connection = new Connection(i, channel, settings.messageSize());
            connections.add(connection);
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                connection.connected = channel.connect(settings.server(i));
                connection.key = channel.register(selector, connection.connected ? 0 : SelectionKey.OP_CONNECT, connection);
            } catch (IOException e) {
                failure = "could not connect socket " + (i + 1) + " of " + wanted + ": " + e;
            }
        }
        Duration patience = failure == null ? settings.connectTimeout() : SETTLE_AFTER_FAILURE;
        long deadline = System.nanoTime() + patience.toNanos();
        int connected = countConnected(connections);
        while (connected < connections.size()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
            while (ready.hasNext()) {
                SelectionKey key = ready.next();
                ready.remove();
                Connection connection = (Connection) key.attachment();
                try {
                    if (connection.channel.finishConnect()) {
                        connection.connected = true;
                        key.interestOps(0);
                        connected++;
                    }
                } catch (IOException e) {
                    key.cancel();
                    connection.close();
                    if (failure == null) {
                        failure = "connection " + (connection.index + 1) + " of " + wanted + " failed: " + e;
                        deadline = Math.min(deadline, System.nanoTime() + SETTLE_AFTER_FAILURE.toNanos());
                    }
                }
            }
            if (failure != null && connected + countClosed(connections) >= connections.size()) {
                break;
            }
        }
        if (failure == null && connected < wanted) {
            failure = "only " + connected + " of " + wanted + " connections came up within "
                    + settings.connectTimeout().toMillis() + " ms";
        }
        return failure;
    }

    private static int countClosed(List<Connection> connections) {
        int closed = 0;
        for (Connection connection : connections) {
            if (!connection.channel.isOpen()) {
                closed++;
            }
        }
        return closed;
    }

    private EchoResult echo(EchoSettings settings, Selector selector, List<Connection> connections)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        long stopSendingAt = start + settings.duration().toNanos();
        long giveUpAt = stopSendingAt + settings.drainTimeout().toNanos();
        long echoes = 0;
        long corrupted = 0;
        long errors = 0;
        int inFlight = 0;
        for (Connection connection : connections) {
            if (connection.sendNext()) {
                inFlight++;
            } else {
                errors++;
            }
        }
        while (inFlight > 0) {
            long now = System.nanoTime();
            if (now - giveUpAt >= 0) {
                break;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            long wakeAt = now - stopSendingAt < 0 ? stopSendingAt : giveUpAt;
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wakeAt - now)));
            boolean sending = System.nanoTime() - stopSendingAt < 0;
            Iterator<SelectionKey> ready = selector.selectedKeys().iterator();
            while (ready.hasNext()) {
                SelectionKey key = ready.next();
                ready.remove();
                Connection connection = (Connection) key.attachment();
                try {
                    if (key.isWritable()) {
                        connection.writeMore();
                    }
                    if (key.isReadable() && connection.readMore()) {
                        echoes++;
                        if (!connection.answerMatches()) {
                            corrupted++;
                        }
                        if (!sending || !connection.sendNext()) {
                            key.interestOps(0);
                            inFlight--;
                        }
                    }
                } catch (IOException e) {
                    errors++;
                    inFlight--;
                    connection.close();
                }
            }
        }
        long measured = System.nanoTime() - start;
        return new EchoResult(name(), settings.connections(), 0, connections.size(), echoes, corrupted, errors,
                inFlight, Duration.ofNanos(measured), null);
    }

    private static int countConnected(List<Connection> connections) {
        int connected = 0;
        for (Connection connection : connections) {
            if (connection.connected) {
                connected++;
            }
        }
        return connected;
    }

    /** One connection: its request, the answer read so far, and where the request's bytes are. */
    private static final class Connection {
        final int index;
        final SocketChannel channel;
        final byte[] sent;
        final byte[] received;
        final ByteBuffer out;
        final ByteBuffer in;
        SelectionKey key;
        boolean connected;
        long sequence;

        Connection(int index, SocketChannel channel, int messageSize) {
            this.index = index;
            this.channel = channel;
            this.sent = new byte[messageSize];
            this.received = new byte[messageSize];
            this.out = ByteBuffer.wrap(sent);
            this.in = ByteBuffer.wrap(received);
        }

        /** Writes the next request; false if the connection is broken. */
        boolean sendNext() {
            EchoMessage.fill(sent, index, sequence++);
            out.clear();
            in.clear();
            try {
                writeMore();
                return true;
            } catch (IOException e) {
                close();
                return false;
            }
        }

        void writeMore() throws IOException {
            channel.write(out);
            key.interestOps(out.hasRemaining() ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        /** True when the whole answer is in. */
        boolean readMore() throws IOException {
            if (channel.read(in) < 0) {
                throw new IOException("server closed connection " + (index + 1));
            }
            return !in.hasRemaining();
        }

        boolean answerMatches() {
            return Arrays.equals(sent, received);
        }

        void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Already broken; closing is all that is left to do.
            }
        }
    }
}
