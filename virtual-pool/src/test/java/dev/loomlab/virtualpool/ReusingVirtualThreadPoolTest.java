package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReusingVirtualThreadPoolTest {

    private final ReusingVirtualThreadPool pool = new ReusingVirtualThreadPool();

    ReusingVirtualThreadPoolTest() {
        pool.configure(null, GrizzlyConfig.listener("http-listener"), GrizzlyConfig.threadPool("reusing", "5", "5"));
    }

    @AfterEach
    void shutDown() throws InterruptedException {
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }

    @Test
    void aFinishedVirtualThreadServesTheNextTask() throws Exception {
        CompletableFuture<Thread> first = new CompletableFuture<>();
        pool.execute(() -> first.complete(Thread.currentThread()));
        Thread worker = first.get(5, TimeUnit.SECONDS);
        VirtualThreadPoolTest.waitFor(() -> pool.getCompleted() == 1);
        // Let the worker get back to waiting for work before the next task arrives.
        Thread.sleep(50);

        CompletableFuture<Thread> second = new CompletableFuture<>();
        pool.execute(() -> second.complete(Thread.currentThread()));

        assertTrue(worker.isVirtual());
        assertTrue(worker.getName().startsWith("reusing::http-listener-virtual-"), worker.getName());
        assertSame(worker, second.get(5, TimeUnit.SECONDS), "the idle virtual thread is reused");
        assertEquals(1, pool.getThreadsReused());
    }

    @Test
    void staysUnboundedWhenAllWorkersAreBusy() throws Exception {
        int tasks = 500;
        CountDownLatch allRunning = new CountDownLatch(tasks);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                allRunning.countDown();
                VirtualThreadPoolTest.await(release);
            });
        }
        assertTrue(allRunning.await(10, TimeUnit.SECONDS), "a new virtual thread whenever none is idle");
        assertEquals(tasks, pool.getActive());
        assertEquals(-1, pool.getMaxConcurrent());
        release.countDown();
    }

    @Test
    void shutdownWaitsForInFlightTasksThenEndsTheIdleWorkers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        pool.execute(() -> {
            worker.complete(Thread.currentThread());
            VirtualThreadPoolTest.await(release);
        });
        Thread thread = worker.get(5, TimeUnit.SECONDS);
        pool.shutdown();
        assertTrue(!pool.awaitTermination(100, TimeUnit.MILLISECONDS), "a task is still running");
        release.countDown();
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
        thread.join(5_000);
        assertTrue(!thread.isAlive(), "the idle worker ended after shutdown");
    }

    @Test
    void shutdownNowEndsIdleWorkersWhileATaskIsStillRunning() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CompletableFuture<Thread> idleWorker = new CompletableFuture<>();
        CompletableFuture<Thread> busyWorker = new CompletableFuture<>();
        CountDownLatch bothRunning = new CountDownLatch(2);
        pool.execute(() -> {
            idleWorker.complete(Thread.currentThread());
            bothRunning.countDown();
            VirtualThreadPoolTest.await(releaseFirst);
        });
        pool.execute(() -> {
            busyWorker.complete(Thread.currentThread());
            bothRunning.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // shutdownNow: end the task
            }
        });
        assertTrue(bothRunning.await(5, TimeUnit.SECONDS));
        releaseFirst.countDown();
        VirtualThreadPoolTest.waitFor(() -> pool.getCompleted() == 1);

        pool.shutdownNow();

        Thread idle = idleWorker.get(5, TimeUnit.SECONDS);
        Thread busy = busyWorker.get(5, TimeUnit.SECONDS);
        idle.join(10_000);
        busy.join(10_000);
        assertFalse(idle.isAlive(), "the idle worker ended on shutdownNow, not after its idle timeout");
        assertFalse(busy.isAlive(), "the interrupted worker ended");
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
    }

    /**
     * The documented hazard of reusing: a ThreadLocal a task sets and does not remove is still set
     * for the next task on the same virtual thread. A plain pool gives every task a clean thread.
     */
    @Test
    void aThreadLocalLeftSetByOneTaskIsSeenByTheNextTaskOnTheSameThread() throws Exception {
        ThreadLocal<String> requestUser = new ThreadLocal<>();
        CompletableFuture<Thread> first = new CompletableFuture<>();
        pool.execute(() -> {
            requestUser.set("alice"); // and no remove(), as in an MDC put without a finally
            first.complete(Thread.currentThread());
        });
        Thread worker = first.get(5, TimeUnit.SECONDS);
        VirtualThreadPoolTest.waitFor(() -> pool.getCompleted() == 1);
        Thread.sleep(50); // let the worker go back to waiting for work

        CompletableFuture<String> seenByNext = new CompletableFuture<>();
        CompletableFuture<Thread> second = new CompletableFuture<>();
        pool.execute(() -> {
            second.complete(Thread.currentThread());
            seenByNext.complete(String.valueOf(requestUser.get()));
        });
        assertSame(worker, second.get(5, TimeUnit.SECONDS), "the same virtual thread served both");
        assertEquals("alice", seenByNext.get(5, TimeUnit.SECONDS), "the next request inherits the value");

        VirtualThreadPool plain = new VirtualThreadPool();
        try {
            CountDownLatch set = new CountDownLatch(1);
            plain.execute(() -> {
                requestUser.set("alice");
                set.countDown();
            });
            assertTrue(set.await(5, TimeUnit.SECONDS));
            CompletableFuture<String> seenOnPlain = new CompletableFuture<>();
            plain.execute(() -> seenOnPlain.complete(String.valueOf(requestUser.get())));
            assertEquals("null", seenOnPlain.get(5, TimeUnit.SECONDS), "a new virtual thread starts clean");
        } finally {
            plain.shutdown();
        }
    }
}
