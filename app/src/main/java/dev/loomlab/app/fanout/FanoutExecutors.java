package dev.loomlab.app.fanout;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where a fan-out's tasks run: on the same kind of thread as the request, with the mode's limits.
 * <ul>
 *   <li>a request on a virtual thread (virtual modes): a new virtual thread per task, from an
 *       executor of the request's own ({@link Executors#newThreadPerTaskExecutor}, closed when all
 *       tasks are done). Structured concurrency is still a preview API in JDK 25, so not used;</li>
 *   <li>a request on a platform thread (platform modes): one shared pool of platform threads, as
 *       many as the mode's HTTP pool (read from the server's domain.xml by {@link HttpPoolSize};
 *       {@code -Dloomlab.fanout.platformThreads} overrides it), created on demand; tasks beyond it queue.</li>
 * </ul>
 * Why that pool size is the fair comparison: a platform mode is "N platform threads for blocking
 * work", and N is what the operator sized for memory and the kernel's thread limits; giving the
 * downstream calls the same budget keeps the mode what it is. Ten times N (one per task) would be
 * 40000-100000 threads, beyond the kernel's default pid_max (32768), and a new platform thread per
 * task would be an unbounded platform mode, which no Payara mode is. Little's law then caps a
 * platform mode's fan-out at N / (tasks x mean task sleep) requests per second.
 */
@ApplicationScoped
public class FanoutExecutors {

    /** Overrides the platform pool size (default: the HTTP pool's, see {@link HttpPoolSize}). */
    public static final String PLATFORM_THREADS_PROPERTY = "loomlab.fanout.platformThreads";
    /** When neither is known: Payara's default HTTP pool size. */
    public static final int DEFAULT_PLATFORM_THREADS = 200;

    private final ThreadFactory virtualThreads = Thread.ofVirtual().name("fanout-virtual-", 0).factory();
    private volatile ThreadPoolExecutor platformPool;
    private volatile int platformThreads;

    /** The pool size platform requests fan out to (read once). */
    public int platformThreads() {
        int threads = platformThreads;
        if (threads == 0) {
            Integer override = Integer.getInteger(PLATFORM_THREADS_PROPERTY);
            threads = Math.max(1, override != null ? override : HttpPoolSize.configured().orElse(DEFAULT_PLATFORM_THREADS));
            platformThreads = threads;
        }
        return threads;
    }

    /**
     * The executor for one request's tasks. {@code perRequest} tells the caller to close it when
     * the tasks are done (a virtual-thread executor); the shared platform pool is never closed by a request.
     */
    public Lease forCurrentThread() {
        if (Thread.currentThread().isVirtual()) {
            return new Lease(Executors.newThreadPerTaskExecutor(virtualThreads), true,
                    "virtual-thread-per-task");
        }
        return new Lease(platformPool(), false, "platform-pool-" + platformThreads());
    }

    private ThreadPoolExecutor platformPool() {
        ThreadPoolExecutor pool = platformPool;
        if (pool == null) {
            synchronized (this) {
                pool = platformPool;
                if (pool == null) {
                    int threads = platformThreads();
                    // core == max with an unbounded queue: threads start on demand up to N, then tasks queue.
                    pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                            Thread.ofPlatform().name("fanout-platform-", 0).daemon(true).factory());
                    platformPool = pool;
                }
            }
        }
        return pool;
    }

    @PreDestroy
    void shutdown() {
        ThreadPoolExecutor pool = platformPool;
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    /** An executor for one request, and whether the request owns (and must close) it. */
    public record Lease(ExecutorService executor, boolean perRequest, String kind) implements AutoCloseable {
        @Override
        public void close() {
            if (perRequest) {
                executor.close();
            }
        }
    }
}
