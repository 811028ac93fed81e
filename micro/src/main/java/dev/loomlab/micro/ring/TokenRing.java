package dev.loomlab.micro.ring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The ring benchmark's core: {@code workers} threads connected in a ring pass one token around
 * until it has been passed {@code passes} times.
 * <p>
 * The token carries the number of passes still to go. Each worker takes it from its own mailbox
 * and puts it, decremented, into the next worker's mailbox, so exactly one thread is runnable at
 * any moment: the ring measures nothing but the cost of blocking one thread and waking another.
 * The worker that receives the token at zero is the finisher; it sends a stop signal around the
 * ring so every worker ends, and {@link #run()} returns once all have ended.
 * <p>
 * The threads come from a {@link ThreadFactory}, so the same ring runs on platform threads or on
 * virtual threads without any other difference.
 */
public final class TokenRing {

    /** Travels the ring after the last pass; negative, so it can never be a pass count. */
    private static final long STOP = -1;

    private final int workerCount;
    private final long passes;
    private final ThreadFactory threads;

    /** What one run of the ring observed. */
    public record Outcome(int finisher, long passesMade, Duration elapsed) {
    }

    /**
     * @param workerCount threads in the ring, at least 1 (a ring of one passes to itself)
     * @param passes      how often the token is handed on, at least 0
     * @param threads     makes the worker threads (platform or virtual)
     */
    public TokenRing(int workerCount, long passes, ThreadFactory threads) {
        if (workerCount < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workerCount);
        }
        if (passes < 0) {
            throw new IllegalArgumentException("passes must be at least 0, was " + passes);
        }
        this.workerCount = workerCount;
        this.passes = passes;
        this.threads = threads;
    }

    /** Starts the workers, injects the token at worker 0 and waits until every worker has ended. */
    public Outcome run() throws InterruptedException {
        long start = System.nanoTime();
        List<Worker> ring = new ArrayList<>(workerCount);
        for (int i = 0; i < workerCount; i++) {
            ring.add(new Worker(i));
        }
        for (int i = 0; i < workerCount; i++) {
            ring.get(i).next = ring.get((i + 1) % workerCount);
        }
        AtomicInteger finisher = new AtomicInteger(-1);
        List<Thread> started = new ArrayList<>(workerCount);
        try {
            for (Worker worker : ring) {
                worker.finisher = finisher;
                Thread thread = threads.newThread(worker);
                thread.start();
                started.add(thread);
            }
            ring.get(0).inbox.put(passes);
            for (Thread thread : started) {
                thread.join();
            }
        } finally {
            // Only finds live workers on failure (a thread that could not start, an interrupt):
            // they would otherwise wait for a token forever.
            for (Thread thread : started) {
                thread.interrupt();
            }
        }
        long elapsed = System.nanoTime() - start;
        long passesMade = 0;
        for (Worker worker : ring) {
            passesMade += worker.forwarded;
        }
        return new Outcome(finisher.get(), passesMade, Duration.ofNanos(elapsed));
    }

    /** One member of the ring: waits for the token in its mailbox and hands it on. */
    private static final class Worker implements Runnable {
        private final int index;
        // Holds at most the token or the stop signal: there is only ever one of them in flight.
        private final BlockingQueue<Long> inbox = new ArrayBlockingQueue<>(1);
        private Worker next;
        private AtomicInteger finisher;
        // Written by this worker only, read after join (which makes it visible).
        private long forwarded;

        Worker(int index) {
            this.index = index;
        }

        @Override
        public void run() {
            try {
                while (true) {
                    long remaining = inbox.take();
                    if (remaining == STOP) {
                        next.inbox.put(STOP);
                        return;
                    }
                    if (remaining == 0) {
                        finisher.set(index);
                        next.inbox.put(STOP);
                        return;
                    }
                    forwarded++;
                    next.inbox.put(remaining - 1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
