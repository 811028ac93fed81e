package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class AdmissionTest {

    /**
     * A permit given back goes to the task that waited for it, not to one that arrives just then.
     * Before the fix, the newcomer's plain tryAcquire() took the permit while the waiter was still
     * waking up. To make "still waking up" certain rather than likely, the waiter is a virtual thread
     * and every carrier is kept busy (virtual threads are not time-sliced) until well after the
     * newcomer has asked; only the order is asserted, never a time.
     */
    @Test
    void aNewcomerDoesNotOvertakeATaskWaitingForAPermit() throws Exception {
        Admission gate = Admission.bounded(1, -1);
        PoolMetrics metrics = new PoolMetrics();
        List<String> order = new CopyOnWriteArrayList<>();
        gate.acquire(metrics);

        Thread waiter = Thread.ofVirtual().start(() -> {
            try {
                gate.acquire(metrics);
                order.add("waiter");
                gate.release();
            } catch (InterruptedException e) {
                order.add("interrupted");
            }
        });
        VirtualThreadPoolTest.waitFor(() -> metrics.waiting() == 1 && waiter.getState() == Thread.State.WAITING);

        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch carriersBusy = new CountDownLatch(carriers);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            spinners.add(Thread.ofVirtual().start(() -> {
                carriersBusy.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        assertTrue(carriersBusy.await(10, TimeUnit.SECONDS));
        // The newcomer asks from a platform thread while the waiter cannot run; the release of the
        // carriers happens on another platform thread, after the newcomer has either got the permit
        // (the bug) or queued behind the waiter.
        Thread releaser = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stop.set(true);
        });
        gate.release();
        gate.acquire(metrics);
        order.add("newcomer");
        gate.release();
        releaser.join();
        for (Thread spinner : spinners) {
            spinner.join(10_000);
        }
        waiter.join(10_000);

        assertEquals(List.of("waiter", "newcomer"), order);
    }
}
