package dev.loomlab.virtualpool;

import org.glassfish.grizzly.config.dom.ThreadPool;

/**
 * One new virtual thread per task, no limit on how many run at once: the plain
 * "virtual thread per request" model. {@code max-thread-pool-size} and {@code max-queue-size}
 * are ignored.
 * <pre>
 * set configs.config.server-config.thread-pools.thread-pool.http-thread-pool.classname=dev.loomlab.virtualpool.VirtualThreadPool
 * </pre>
 */
public class VirtualThreadPool extends AbstractVirtualThreadPool {

    public VirtualThreadPool() {
    }

    @Override
    protected Admission admissionFor(ThreadPool config) {
        return Admission.unlimited();
    }

    @Override
    protected void launch(Runnable body) {
        threadFactory().newThread(body).start();
    }
}
