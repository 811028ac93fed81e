package dev.loomlab.virtualpool;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.glassfish.grizzly.config.ConfigAwareElement;
import org.glassfish.grizzly.config.dom.NetworkListener;
import org.glassfish.grizzly.config.dom.ThreadPool;
import org.glassfish.hk2.api.ServiceLocator;

/**
 * The mechanics every LoomLab pool shares: Grizzly configuration, thread naming and context class
 * loader, admission (bounded or not), metrics over JMX, and a graceful shutdown.
 * <p>
 * Grizzly creates the pool from the thread pool's {@code classname} attribute with the public
 * no-arg constructor, then passes the {@code <thread-pool>} configuration to
 * {@link #configure}. Subclasses choose the admission policy ({@link #admissionFor}) and how a task
 * gets its virtual thread ({@link #launch}).
 */
public abstract class AbstractVirtualThreadPool extends AbstractExecutorService
        implements ConfigAwareElement<ThreadPool>, VirtualThreadPoolMXBean {

    /** How long {@link #shutdownNow()} lets in-flight requests finish before interrupting them. */
    public static final String SHUTDOWN_GRACE_PROPERTY = "loomlab.virtualpool.shutdownGraceSeconds";
    public static final String JMX_DOMAIN = "dev.loomlab";

    private static final Logger LOG = Logger.getLogger(AbstractVirtualThreadPool.class.getName());
    private static final AtomicInteger UNCONFIGURED_POOLS = new AtomicInteger();

    protected final PoolMetrics metrics = new PoolMetrics();
    private final Set<Thread> runningThreads = ConcurrentHashMap.newKeySet();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ReentrantLock terminationLock = new ReentrantLock();
    private final Condition terminated = terminationLock.newCondition();

    private volatile String poolName;
    private volatile ThreadFactory threadFactory;
    private volatile ClassLoader taskClassLoader;
    private volatile Admission admission = Admission.unlimited();
    private volatile boolean shutdown;
    private volatile ObjectName registeredAs;

    protected AbstractVirtualThreadPool() {
        // Until Grizzly configures us (or when used outside Payara) the pool still works, unbounded.
        name("virtual-pool-" + UNCONFIGURED_POOLS.incrementAndGet());
        taskClassLoader = Thread.currentThread().getContextClassLoader();
    }

    // ---- configuration ----------------------------------------------------------------------

    @Override
    public void configure(ServiceLocator locator, NetworkListener listener, ThreadPool config) {
        // Grizzly names its platform workers "<thread-pool>(<n>)"; ours carry pool and listener.
        name(config.getName() + "::" + listener.getName());
        // Grizzly's own pool gives its threads the loader of the Grizzly listener classes.
        taskClassLoader = ConfigAwareElement.class.getClassLoader();
        admission = admissionFor(config);
        registerMBean();
        LOG.info(() -> getClass().getSimpleName() + " " + poolName + " serves every task on a virtual thread; max concurrent "
                + limitText(admission.maxConcurrent()) + ", max waiting " + limitText(admission.maxWaiting()));
    }

    /** The admission policy for this pool, read from the {@code <thread-pool>} configuration. */
    protected abstract Admission admissionFor(ThreadPool config);

    /** Starts {@code body} on a virtual thread (a new one, or one this pool keeps). */
    protected abstract void launch(Runnable body);

    /** Virtual threads are named {@code <pool>-virtual-<n>}. */
    protected final ThreadFactory threadFactory() {
        return threadFactory;
    }

    private void name(String name) {
        poolName = name;
        threadFactory = Thread.ofVirtual().name(name + "-virtual-", 1).factory();
    }

    /** Parses a numeric thread-pool attribute; a missing or bad value falls back with a warning. */
    protected static int intSetting(String attribute, String value, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            LOG.warning(() -> "thread-pool " + attribute + "=\"" + value + "\" is not a number; using " + fallback);
            return fallback;
        }
    }

    private static String limitText(int limit) {
        return limit < 0 ? "unbounded" : Integer.toString(limit);
    }

    // ---- execution ----------------------------------------------------------------------------

    @Override
    public void execute(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        if (shutdown) {
            metrics.rejected();
            throw new RejectedExecutionException(poolName + " is shut down");
        }
        Admission gate = admission;
        if (!gate.tryReserve()) {
            metrics.rejected();
            throw new RejectedExecutionException(poolName + " is full: " + gate.maxConcurrent() + " running and "
                    + gate.maxWaiting() + " waiting");
        }
        inFlight.incrementAndGet();
        metrics.accepted();
        try {
            launch(() -> runAdmitted(gate, task));
        } catch (RuntimeException | Error e) {
            gate.cancel();
            taskDone();
            metrics.rejected();
            throw new RejectedExecutionException(poolName + " could not start a virtual thread", e);
        }
    }

    private void runAdmitted(Admission gate, Runnable task) {
        Thread me = Thread.currentThread();
        me.setContextClassLoader(taskClassLoader);
        try {
            gate.acquire(metrics);
        } catch (InterruptedException e) {
            // Shut down while waiting: the task never ran, and its connection is closed by Grizzly.
            gate.cancel();
            taskDone();
            return;
        }
        runningThreads.add(me);
        metrics.runs();
        try {
            task.run();
        } catch (Throwable t) {
            LOG.log(Level.WARNING, poolName + ": task failed", t);
        } finally {
            metrics.finishes();
            runningThreads.remove(me);
            gate.release();
            taskDone();
        }
    }

    private void taskDone() {
        metrics.completes();
        if (inFlight.decrementAndGet() == 0 && shutdown) {
            signalTerminated();
        }
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    @Override
    public void shutdown() {
        shutdown = true;
        if (inFlight.get() == 0) {
            signalTerminated();
        }
        unregisterMBean();
    }

    /**
     * Lets in-flight requests finish for up to {@value #SHUTDOWN_GRACE_PROPERTY} seconds (default 30),
     * then interrupts the ones still running. No task waits in a queue here: each waits on its
     * own thread, so the returned list is always empty.
     */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        long graceSeconds = Long.getLong(SHUTDOWN_GRACE_PROPERTY, 30);
        try {
            if (!awaitTermination(graceSeconds, TimeUnit.SECONDS)) {
                LOG.warning(() -> poolName + ": " + inFlight.get() + " tasks still running after " + graceSeconds
                        + " s; interrupting them");
                runningThreads.forEach(Thread::interrupt);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            runningThreads.forEach(Thread::interrupt);
        }
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && inFlight.get() == 0;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        terminationLock.lock();
        try {
            while (!isTerminated()) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = terminated.awaitNanos(nanos);
            }
            return true;
        } finally {
            terminationLock.unlock();
        }
    }

    private void signalTerminated() {
        terminationLock.lock();
        try {
            terminated.signalAll();
        } finally {
            terminationLock.unlock();
        }
    }

    // ---- JMX ----------------------------------------------------------------------------------

    private synchronized void registerMBean() {
        unregisterMBean();
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(JMX_DOMAIN + ":type=VirtualThreadPool,name=" + ObjectName.quote(poolName));
            if (server.isRegistered(name)) {
                server.unregisterMBean(name); // a reconfigured listener replaces its old pool
            }
            server.registerMBean(this, name);
            registeredAs = name;
        } catch (JMException e) {
            LOG.log(Level.WARNING, poolName + ": metrics not published over JMX", e);
        }
    }

    private synchronized void unregisterMBean() {
        ObjectName name = registeredAs;
        if (name == null) {
            return;
        }
        registeredAs = null;
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            LOG.log(Level.FINE, poolName + ": MBean already gone", e);
        }
    }

    // ---- metrics (VirtualThreadPoolMXBean) ----------------------------------------------------

    @Override public String getPoolName() { return poolName; }
    @Override public String getVariant() { return getClass().getName(); }
    @Override public int getMaxConcurrent() { return admission.maxConcurrent(); }
    @Override public int getMaxWaiting() { return admission.maxWaiting(); }
    @Override public long getStarted() { return metrics.started(); }
    @Override public long getCompleted() { return metrics.completed(); }
    @Override public int getActive() { return metrics.active(); }
    @Override public int getPeakActive() { return metrics.peakActive(); }
    @Override public int getWaiting() { return metrics.waiting(); }
    @Override public long getRejected() { return metrics.rejectedCount(); }
    /** Pools that start a new thread per task never reuse one. */
    @Override public long getThreadsReused() { return 0; }
    @Override public void resetPeakActive() { metrics.resetPeak(); }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + poolName + ", active " + getActive() + ", waiting " + getWaiting() + "]";
    }
}
