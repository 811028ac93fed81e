package dev.loomlab.app.contend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.api.BadParameterException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The contention endpoint's input rules and its spin lock, without a server. */
class ContendInputTest {

    @Test
    void defaultsHoldAHundredMsAndSpinAtMostTenSeconds() {
        ContendRequest request = ContendRequest.parse(null, null);
        assertEquals(100, request.holdMs());
        assertEquals(10_000, request.maxSpinMs());
        assertEquals(10_000_000_000L, request.maxSpinNanos());
    }

    @Test
    void theLockIsTheSpinLockUnlessTheMonitorIsAsked() {
        assertEquals(ContendRequest.Kind.SPIN, ContendRequest.parse(null, null).lock());
        assertEquals(ContendRequest.Kind.SPIN, ContendRequest.parse(null, "5", "spin").lock());
        ContendRequest monitor = ContendRequest.parse("20", null, "monitor");
        assertEquals(ContendRequest.Kind.MONITOR, monitor.lock());
        assertEquals(20, monitor.holdMs());
    }

    @Test
    void anUnknownLockAndASpinBoundOnAMonitorAreRefused() {
        BadParameterException unknown = assertThrows(BadParameterException.class,
                () -> ContendRequest.parse(null, null, "mutex"));
        assertEquals("lock", unknown.parameter());
        assertEquals("spin|monitor", unknown.allowed());
        BadParameterException bound = assertThrows(BadParameterException.class,
                () -> ContendRequest.parse(null, "100", "monitor"));
        assertEquals("maxSpinMs", bound.parameter());
        assertTrue(bound.getMessage().contains("lock=spin only"), bound.getMessage());
    }

    @Test
    void givenValuesInRangeAreTaken() {
        ContendRequest request = ContendRequest.parse("0", "60000");
        assertEquals(0, request.holdMs());
        assertEquals(60_000, request.maxSpinMs());
    }

    @Test
    void aSpinAboveTheCapIsRefusedWithTheReason() {
        BadParameterException e = assertThrows(BadParameterException.class, () -> ContendRequest.parse(null, "60001"));
        assertEquals("maxSpinMs", e.parameter());
        assertEquals("1..60000", e.allowed());
        assertTrue(e.getMessage().contains(ContendRequest.MAX_SPIN_MS_PROPERTY), e.getMessage());
    }

    @Test
    void badValuesNameTheirParameter() {
        for (String[] bad : new String[][]{{"-1", null}, {"x", null}, {"60001", null}, {"99999999999", null}}) {
            assertEquals("holdMs", assertThrows(BadParameterException.class,
                    () -> ContendRequest.parse(bad[0], bad[1])).parameter(), bad[0]);
        }
        for (String bad : new String[]{"0", "-5", "ten", " "}) {
            assertEquals("maxSpinMs", assertThrows(BadParameterException.class,
                    () -> ContendRequest.parse(null, bad)).parameter(), bad);
        }
    }

    @Test
    void aFreeLockIsTakenAndAHeldOneIsNotWithinTheCap() {
        SpinLock lock = new SpinLock();
        assertTrue(lock.acquire(TimeUnit.MILLISECONDS.toNanos(1)));
        long start = System.nanoTime();
        assertFalse(lock.acquire(TimeUnit.MILLISECONDS.toNanos(50)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "gave up before its cap");
        assertTrue(lock.isHeld(), "a waiter that gave up must not free the holder's lock");
        lock.release();
        assertTrue(lock.acquire(TimeUnit.MILLISECONDS.toNanos(1)));
    }

    @Test
    void aSpinnerGetsTheLockOnceTheHolderReleasesIt() throws InterruptedException {
        SpinLock lock = new SpinLock();
        assertTrue(lock.acquire(1));
        boolean[] got = new boolean[1];
        Thread spinner = Thread.ofPlatform().start(() -> got[0] = lock.acquire(TimeUnit.SECONDS.toNanos(60)));
        lock.release();
        spinner.join();
        assertTrue(got[0]);
        assertTrue(lock.isHeld());
    }
}
