package dev.loomlab.micro.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Threads that each recurse {@code depth} frames and then park until released: the stacks stay
 * alive while the experiment measures the process.
 */
final class ParkedThreads {

    /** Heap kept back so that, once the heap runs out, there is room left to report and clean up. */
    private static final int RESERVE_BYTES = 8 << 20;

    private final int depth;
    private final Thread.Builder builder;
    private final List<Thread> started;
    /** One permit per thread that has either parked at depth or failed on the way down. */
    private final Semaphore settled = new Semaphore(0);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger parked = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private volatile byte[] reserve = new byte[RESERVE_BYTES];
    private volatile boolean releasedEarly;
    private Throwable refusal;

    ParkedThreads(boolean virtual, int depth, int capacity) {
        this.depth = depth;
        // Sized up front: growing the list is an allocation that could fail just when the heap is full.
        this.started = new ArrayList<>(capacity);
        // Daemon platform threads: whatever goes wrong, they can never keep the JVM from exiting.
        this.builder = virtual ? Thread.ofVirtual().name("parked-virtual-", 1)
                : Thread.ofPlatform().daemon(true).name("parked-platform-", 1);
    }

    /**
     * Starts up to {@code count} threads; stops at the first the JVM or the OS refuses
     * ("unable to create native thread", or no heap left), which {@link #refusal()} then holds.
     *
     * @return how many were started
     */
    int start(int count) {
        for (int i = 0; i < count && refusal == null; i++) {
            try {
                Thread thread = builder.unstarted(this::descendAndPark);
                thread.start();
                started.add(thread);
            } catch (OutOfMemoryError e) {
                refused(e);
            }
        }
        return started.size();
    }

    /** Records what stopped the run; a full heap also releases the threads, or nothing could be reported. */
    void refused(OutOfMemoryError e) {
        if (refusal == null) {
            refusal = e;
        }
        if (!refusedForNativeThread()) {
            reserve = null;
            releasedEarly = true;
            release.countDown();
        }
    }

    /** Whether the OS refused a thread (as opposed to the heap running out). */
    boolean refusedForNativeThread() {
        return refusal != null && String.valueOf(refusal.getMessage()).contains("native thread");
    }

    /** Whether the threads were let go before the measurement (only when the heap ran out). */
    boolean releasedEarly() {
        return releasedEarly;
    }

    /** Waits until every started thread has parked at depth or failed; false on timeout. */
    boolean awaitSettled(long timeout, TimeUnit unit) throws InterruptedException {
        return settled.tryAcquire(started.size(), timeout, unit);
    }

    /** Lets every parked thread return, and waits (bounded) until they have. */
    void releaseAll(long timeout, TimeUnit unit) throws InterruptedException {
        release.countDown();
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread thread : started) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !thread.join(Duration.ofNanos(left))) {
                return; // daemon threads: the JVM exits anyway
            }
        }
        reserve = null;
    }

    int started() {
        return started.size();
    }

    int parked() {
        return parked.get();
    }

    int failed() {
        return failed.get();
    }

    Throwable refusal() {
        return refusal;
    }

    Throwable firstFailure() {
        return firstFailure.get();
    }

    private void descendAndPark() {
        try {
            descend(depth);
        } catch (StackOverflowError | OutOfMemoryError e) {
            if (e instanceof OutOfMemoryError) {
                reserve = null;
            }
            failed.incrementAndGet();
            firstFailure.compareAndSet(null, e);
            settled.release();
        }
    }

    /** One frame per level, as a request's call chain would hold; parks at the bottom. */
    private void descend(int framesLeft) {
        if (framesLeft > 0) {
            descend(framesLeft - 1);
            return;
        }
        parked.incrementAndGet();
        settled.release();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
