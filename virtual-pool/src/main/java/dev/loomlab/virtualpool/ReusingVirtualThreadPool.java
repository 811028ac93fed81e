package dev.loomlab.virtualpool;

import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.glassfish.grizzly.config.dom.ThreadPool;

/**
 * Virtual threads for every request, but a virtual thread that finished one request waits (up to
 * {@code idle-thread-timeout-seconds}) for the next instead of ending; a new one starts only when
 * none is idle. Concurrency stays unbounded, as in {@link VirtualThreadPool}.
 * <p>
 * Why: Grizzly keeps per-thread caches that assume long-lived workers. Its {@code ThreadCache}
 * holds, per thread, the direct buffer every socket read goes through (as large as the socket's
 * receive buffer, 128 KiB on Linux loopback) and the heap memory manager's buffer pool. A new
 * virtual thread per request starts with empty caches, so every request allocates and zeroes a
 * fresh direct buffer and heap chunk, and the garbage grows with the request rate. Reusing the
 * virtual thread keeps its caches warm. See docs/virtual-threads-on-grizzly.md.
 * <p>
 * The price: every other {@code ThreadLocal} stays too. A value a request sets and does not remove
 * is seen by the next request on the same thread (virtual-pool/README.md names the code at risk).
 * <pre>
 * set configs.config.server-config.thread-pools.thread-pool.http-thread-pool.classname=dev.loomlab.virtualpool.ReusingVirtualThreadPool
 * </pre>
 */
public class ReusingVirtualThreadPool extends AbstractVirtualThreadPool {

    /** Grizzly's default idle timeout for its own workers. */
    private static final int DEFAULT_IDLE_SECONDS = 900;

    private final LongAdder threadsCreated = new LongAdder();
    // The JDK's cached pool: a SynchronousQueue hands each task to an idle worker or a new one.
    private final ThreadPoolExecutor workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE,
            DEFAULT_IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), this::newWorker);

    public ReusingVirtualThreadPool() {
    }

    private Thread newWorker(Runnable worker) {
        threadsCreated.increment();
        return threadFactory().newThread(worker);
    }

    @Override
    protected Admission admissionFor(ThreadPool config) {
        int idleSeconds = intSetting("idle-thread-timeout-seconds", config.getIdleThreadTimeoutSeconds(), DEFAULT_IDLE_SECONDS);
        workers.setKeepAliveTime(Math.max(1, idleSeconds), TimeUnit.SECONDS);
        return Admission.unlimited();
    }

    @Override
    protected void launch(Runnable body) {
        workers.execute(body);
    }

    @Override
    public long getThreadsReused() {
        return getStarted() - threadsCreated.sum();
    }

    /** Idle workers end once every request in flight has finished after shutdown. */
    @Override
    protected void onTerminated() {
        workers.shutdown();
    }

    /** Also ends the idle workers now, whatever is still running. */
    @Override
    public List<Runnable> shutdownNow() {
        List<Runnable> neverStarted = super.shutdownNow();
        workers.shutdownNow();
        return neverStarted;
    }
}
