package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class AdmissionTest {

    /**
     * A permit given back goes to the task that waited for it, not to one that arrives just then.
     * Before the fix, the newcomer's plain tryAcquire() took the permit while the waiter was still
     * waking up.
     */
    @Test
    void aNewcomerDoesNotOvertakeATaskWaitingForAPermit() throws Exception {
        Admission gate = Admission.bounded(1, -1);
        PoolMetrics metrics = new PoolMetrics();
        List<String> order = new CopyOnWriteArrayList<>();
        gate.acquire(metrics);

        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                gate.acquire(metrics);
                order.add("waiter");
                gate.release();
            } catch (InterruptedException e) {
                order.add("interrupted");
            }
        });
        VirtualThreadPoolTest.waitFor(() -> metrics.waiting() == 1 && waiter.getState() == Thread.State.WAITING);

        gate.release();
        gate.acquire(metrics); // the newcomer, arriving as the permit comes back
        order.add("newcomer");
        gate.release();
        waiter.join(10_000);

        assertEquals(List.of("waiter", "newcomer"), order);
    }
}
