package dev.loomlab.virtualpool;

/**
 * What a virtual-thread pool exposes over JMX as {@code dev.loomlab:type=VirtualThreadPool,name=<pool>}.
 * Counts are of tasks, and each task is one HTTP request (or one other I/O event Grizzly dispatches).
 */
public interface VirtualThreadPoolMXBean {

    /** Pool and listener, e.g. {@code http-thread-pool::http-listener}. */
    String getPoolName();

    /** Implementation class, so a report can tell the variants apart. */
    String getVariant();

    /** Tasks allowed to run at once; -1 when unbounded. */
    int getMaxConcurrent();

    /** Tasks allowed to wait for a permit; -1 when unlimited. */
    int getMaxWaiting();

    /** Tasks accepted since start. */
    long getStarted();

    /** Tasks that finished, normally or not. */
    long getCompleted();

    /** Tasks running now (holding a permit). */
    int getActive();

    /** Highest {@link #getActive()} seen since start or the last {@link #resetPeakActive()}. */
    int getPeakActive();

    /** Tasks whose virtual thread waits for a permit now. */
    int getWaiting();

    /** Tasks refused because the pool was full or shut down. */
    long getRejected();

    /** Virtual threads that were reused for another task instead of being created (reusing variant). */
    long getThreadsReused();

    /** Starts a new peak measurement, e.g. between two benchmark points. */
    void resetPeakActive();
}
