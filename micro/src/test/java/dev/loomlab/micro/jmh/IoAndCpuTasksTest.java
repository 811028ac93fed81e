package dev.loomlab.micro.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class IoAndCpuTasksTest {

    // The lab's test ports for stubs, apart from the 18300..18309 the benchmark itself uses.
    private static final int FIRST = 18360;
    private static final int LAST = 18369;

    @Test
    void httpCallWaitsForTheStubsDelayAndReadsTheBody() throws Exception {
        Duration delay = Duration.ofMillis(120);
        try (DelayedHttpStub stub = DelayedHttpStub.start(FIRST, LAST, delay)) {
            HttpCall call = new HttpCall(stub.uri());
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                long bytes = call.call();
                long took = System.nanoTime() - start;

                assertEquals(DelayedHttpStub.BODY.length, bytes);
                assertTrue(took >= delay.toNanos(), "answered after " + took / 1e6 + " ms");
            }
        }
    }

    @Test
    void httpCallFailsOnAnErrorStatus() throws Exception {
        try (DelayedHttpStub stub = DelayedHttpStub.start(FIRST, LAST, Duration.ZERO)) {
            HttpCall missing = new HttpCall(stub.uri().resolve("/nothing-here"));
            IOException error = assertThrows(IOException.class, missing::call);
            assertTrue(error.getMessage().contains("404"), error.getMessage());
        }
    }

    @Test
    void stubSaysWhenNoPortOfItsRangeIsFree() throws Exception {
        try (DelayedHttpStub first = DelayedHttpStub.start(FIRST, FIRST, Duration.ZERO)) {
            int taken = first.uri().getPort();
            BindException busy = assertThrows(BindException.class,
                    () -> DelayedHttpStub.start(taken, taken, Duration.ZERO));
            assertTrue(busy.getMessage().contains(taken + ".." + taken), busy.getMessage());
        }
    }

    @Test
    void keyPairTaskGeneratesAKey() throws Exception {
        // An encoded P-256 public key is 91 bytes (SubjectPublicKeyInfo with an uncompressed point).
        assertEquals(91L, KeyPairTask.ellipticCurve().call());
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void fanOutRunsAllTasksAtOnceOnTheChosenKindOfThread(ThreadKind kind) throws Exception {
        int count = 50;
        CountDownLatch allRunning = new CountDownLatch(count);
        AtomicInteger onRightKind = new AtomicInteger();

        long sum = TaskFanOut.runAll(count, kind.factory(), () -> {
            if (Thread.currentThread().isVirtual() == (kind == ThreadKind.VIRTUAL)) {
                onRightKind.incrementAndGet();
            }
            allRunning.countDown();
            // Only returns if all tasks run at the same time: none finishes before the last has started.
            return allRunning.await(10, TimeUnit.SECONDS) ? 1L : 0L;
        });

        assertEquals(count, sum);
        assertEquals(count, onRightKind.get());
    }

    @Test
    void fanOutPassesTheFirstFailureOn() {
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> TaskFanOut.runAll(3, ThreadKind.VIRTUAL.factory(), () -> {
                    throw new IOException("stub unreachable");
                }));
        assertEquals("stub unreachable", failure.getCause().getMessage());
    }

    @Test
    void threadKindsParseFromTheirLabels() {
        assertEquals(ThreadKind.VIRTUAL, ThreadKind.parse("virtual"));
        assertEquals(ThreadKind.PLATFORM, ThreadKind.parse("PLATFORM"));
        assertEquals("platform", ThreadKind.PLATFORM.label());
        assertThrows(IllegalArgumentException.class, () -> ThreadKind.parse("kernel"));
    }
}
