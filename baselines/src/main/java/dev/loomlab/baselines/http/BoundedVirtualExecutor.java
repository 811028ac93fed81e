package dev.loomlab.baselines.http;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A new virtual thread per task, at most {@code maxConcurrent} running at once. The permit is
 * taken on the task's own virtual thread, so a waiting request parks a cheap virtual thread and
 * never stalls the server's dispatcher thread.
 */
final class BoundedVirtualExecutor extends AbstractExecutorService {

    private final ExecutorService threads;
    // Fair, like the LoomLab Grizzly pool: requests that waited longest run first.
    private final Semaphore permits;

    BoundedVirtualExecutor(int maxConcurrent, ThreadFactory virtualThreads) {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be at least 1, was " + maxConcurrent);
        }
        this.permits = new Semaphore(maxConcurrent, true);
        this.threads = Executors.newThreadPerTaskExecutor(virtualThreads);
    }

    @Override
    public void execute(Runnable task) {
        threads.execute(() -> {
            try {
                permits.acquire();
            } catch (InterruptedException e) {
                return; // shutting down while waiting: the task never ran
            }
            try {
                task.run();
            } finally {
                permits.release();
            }
        });
    }

    @Override
    public void shutdown() {
        threads.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return threads.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return threads.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return threads.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return threads.awaitTermination(timeout, unit);
    }
}
