/**
 * {@code GET /api/contend}: the lab's own reproduction of a hazard of virtual threads, so that the
 * lab's stall watchdog can be tested against a real stall.
 *
 * <p>Virtual threads are not time-sliced. A library whose lock-acquire loop busy-waits instead of
 * parking keeps its carrier thread for as long as it spins; when as many requests spin as there
 * are carriers, the request that holds the lock (it parked, e.g. for I/O) never gets a carrier
 * back to release it, and the whole server stops answering. On platform threads the OS
 * time-slices the spinners and the holder runs: slow, but alive.
 *
 * <p>Each request takes one lock, {@link dev.loomlab.app.contend.SpinLock}, by spinning, holds it
 * while it sleeps (the "waker": it frees the flag the spinners poll when its sleep ends), then
 * releases it. Every spin has a hard time cap, so a stalled test server always recovers.
 */
package dev.loomlab.app.contend;
