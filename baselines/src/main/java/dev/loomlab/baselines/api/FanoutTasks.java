package dev.loomlab.baselines.api;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Where a server's fan-out tasks run, as in the WAR: on the same kind of thread as its requests,
 * with the same limit. A new virtual thread per task where requests get new virtual threads; a
 * new platform thread per task where each request gets a new platform thread; a pool as large as
 * the request pool where requests share a pool of N platform threads (the server's thread budget).
 */
public record FanoutTasks(ExecutorService executor, String kind) implements AutoCloseable {

    public static FanoutTasks virtualPerTask() {
        return new FanoutTasks(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("fanout-virtual-", 0).factory()),
                "virtual-thread-per-task");
    }

    public static FanoutTasks platformPerTask() {
        return new FanoutTasks(Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("fanout-platform-", 0).factory()),
                "platform-thread-per-task");
    }

    public static FanoutTasks platformPool(int threads) {
        return new FanoutTasks(Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("fanout-platform-", 0).factory()),
                "platform-pool-" + threads);
    }

    /** Stops the tasks still sleeping: a server stop never waits for them. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
