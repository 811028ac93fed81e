package dev.loomlab.micro.echo;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The thread-per-connection echo client: each connection gets its own thread that connects,
 * waits at the start gate, then writes a request and blocks reading the answer, over and over.
 * Which threads (platform or virtual) comes from the {@link ThreadFactory}; the code is the same.
 * <p>
 * A thread that cannot be started (the OS refuses another native thread) or a socket that cannot
 * be opened (no file descriptor left, connection refused) ends the run before the gate opens: the
 * threads already waiting are released and told to close, and the result says how far it got.
 */
public final class ThreadedEchoClient implements EchoClient {

    private final String name;
    private final ThreadFactory threads;

    public ThreadedEchoClient(String name, ThreadFactory threads) {
        this.name = name;
        this.threads = threads;
    }

    public static ThreadedEchoClient platform() {
        return new ThreadedEchoClient("platform", Thread.ofPlatform().name("echo-", 0).factory());
    }

    public static ThreadedEchoClient virtual() {
        return new ThreadedEchoClient("virtual", Thread.ofVirtual().name("echo-", 0).factory());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public EchoResult run(EchoSettings settings) throws InterruptedException {
        Run run = new Run(settings);
        List<Thread> workers = new ArrayList<>(settings.connections());
        try {
            String failure = startWorkers(run, workers);
            if (failure == null) {
                failure = run.awaitAllConnected(settings.connectTimeout());
            }
            if (failure != null) {
                run.abort();
                awaitEnd(run, workers, Duration.ofSeconds(10));
                return EchoResult.failed(name, settings.connections(), workers.size(), run.connected.get(), failure);
            }
            long start = System.nanoTime();
            run.gate.countDown();
            Thread.sleep(settings.duration());
            run.stopSending = true;
            int unfinished = awaitEnd(run, workers, settings.drainTimeout());
            long measured = System.nanoTime() - start;
            return new EchoResult(name, settings.connections(), workers.size(), run.connected.get(),
                    run.echoes.sum(), run.corrupted.sum(), run.errors.sum(), unfinished,
                    Duration.ofNanos(measured), null);
        } finally {
            // On interrupt or any surprise: no worker may outlive the run.
            run.abort();
            for (Thread worker : workers) {
                worker.interrupt();
            }
        }
    }

    /** Returns why starting stopped early, or null when every worker thread is running. */
    private String startWorkers(Run run, List<Thread> workers) {
        int wanted = run.settings.connections();
        for (int i = 0; i < wanted; i++) {
            String socketFailure = run.failure.get();
            if (socketFailure != null) {
                return socketFailure;
            }
            try {
                Thread worker = threads.newThread(new Worker(run, i));
                worker.start();
                workers.add(worker);
            } catch (OutOfMemoryError | RuntimeException e) {
                // "unable to create native thread": the OS has no thread left for this process.
                return "could not start thread " + (i + 1) + " of " + wanted + ": " + e;
            }
        }
        return null;
    }

    /**
     * Waits up to {@code timeout} for the workers to end, then interrupts the rest (which closes
     * their sockets) and returns how many were still running.
     */
    private static int awaitEnd(Run run, List<Thread> workers, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int stillRunning = 0;
        for (Thread worker : workers) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                worker.join(Duration.ofNanos(left));
            }
            if (worker.isAlive()) {
                stillRunning++;
            }
        }
        if (stillRunning > 0) {
            // Marked aborted first, so the interrupted ones do not count as failed connections.
            run.abort();
            for (Thread worker : workers) {
                worker.interrupt();
            }
            long graceEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            for (Thread worker : workers) {
                long left = graceEnd - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                worker.join(Duration.ofNanos(left));
            }
        }
        return stillRunning;
    }

    /** What the workers of one run share. */
    private static final class Run {
        final EchoSettings settings;
        final CountDownLatch allConnected;
        final CountDownLatch gate = new CountDownLatch(1);
        final AtomicInteger connected = new AtomicInteger();
        final AtomicReference<String> failure = new AtomicReference<>();
        final LongAdder echoes = new LongAdder();
        final LongAdder corrupted = new LongAdder();
        final LongAdder errors = new LongAdder();
        volatile boolean stopSending;
        volatile boolean aborted;

        Run(EchoSettings settings) {
            this.settings = settings;
            this.allConnected = new CountDownLatch(settings.connections());
        }

        void fail(String why) {
            failure.compareAndSet(null, why);
        }

        /** Null once every connection is up; otherwise why not. */
        String awaitAllConnected(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!allConnected.await(50, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    return failure.get();
                }
                if (System.nanoTime() - deadline > 0) {
                    return "only " + connected.get() + " of " + settings.connections()
                            + " connections came up within " + timeout.toMillis() + " ms";
                }
            }
            return failure.get();
        }

        void abort() {
            aborted = true;
            gate.countDown();
        }
    }

    /** One connection's thread. */
    private static final class Worker implements Runnable {
        private final Run run;
        private final int index;

        Worker(Run run, int index) {
            this.run = run;
            this.index = index;
        }

        @Override
        public void run() {
            SocketChannel channel;
            try {
                channel = SocketChannel.open(run.settings.server(index));
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (IOException e) {
                if (!run.aborted) {
                    run.fail("could not open connection " + (index + 1) + " of " + run.settings.connections() + ": " + e);
                }
                return;
            }
            try (channel) {
                run.connected.incrementAndGet();
                run.allConnected.countDown();
                run.gate.await();
                if (!run.aborted) {
                    echoUntilStopped(channel);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                if (!run.aborted) {
                    run.errors.increment();
                }
            }
        }

        private void echoUntilStopped(SocketChannel channel) throws IOException {
            int size = run.settings.messageSize();
            byte[] sent = new byte[size];
            byte[] received = new byte[size];
            ByteBuffer out = ByteBuffer.wrap(sent);
            ByteBuffer in = ByteBuffer.wrap(received);
            for (long sequence = 0; !run.stopSending && !run.aborted; sequence++) {
                EchoMessage.fill(sent, index, sequence);
                out.clear();
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                in.clear();
                while (in.hasRemaining()) {
                    if (channel.read(in) < 0) {
                        throw new IOException("server closed the connection");
                    }
                }
                if (!Arrays.equals(sent, received)) {
                    run.corrupted.increment();
                }
                run.echoes.increment();
            }
        }
    }
}
