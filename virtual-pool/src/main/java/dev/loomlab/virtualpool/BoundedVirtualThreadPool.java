package dev.loomlab.virtualpool;

import org.glassfish.grizzly.config.dom.ThreadPool;

/**
 * One new virtual thread per task, at most {@code max-thread-pool-size} running at once and at
 * most {@code max-queue-size} waiting for a turn (-1: no limit); beyond that, tasks are rejected
 * and the client gets a 503 (see {@link HttpRefusal}). The settings are the same ones the platform pool reads, so
 * the admin console's "Max Thread Pool Size" bounds this pool too.
 * <pre>
 * set configs.config.server-config.thread-pools.thread-pool.http-thread-pool.classname=dev.loomlab.virtualpool.BoundedVirtualThreadPool
 * set configs.config.server-config.thread-pools.thread-pool.http-thread-pool.max-thread-pool-size=4000
 * </pre>
 */
public class BoundedVirtualThreadPool extends VirtualThreadPool {

    /** Grizzly's own fallbacks when an attribute is empty. */
    private static final int DEFAULT_MAX = 200;
    private static final int DEFAULT_QUEUE = 4096;

    public BoundedVirtualThreadPool() {
    }

    @Override
    protected Admission admissionFor(ThreadPool config) {
        int max = intSetting("max-thread-pool-size", config.getMaxThreadPoolSize(), DEFAULT_MAX);
        int queue = intSetting("max-queue-size", config.getMaxQueueSize(), DEFAULT_QUEUE);
        return Admission.bounded(Math.max(1, max), queue);
    }
}
