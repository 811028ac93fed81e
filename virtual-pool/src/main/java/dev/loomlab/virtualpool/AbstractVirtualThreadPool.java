package dev.loomlab.virtualpool;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 * loader, admission (bounded or not), metrics over JMX, shutdown as the {@code ExecutorService}
 * contract has it, and a 503 for the HTTP requests it refuses.
 * <p>
 * Grizzly creates the pool from the thread pool's {@code classname} attribute with the public
 * no-arg constructor, then passes the {@code <thread-pool>} configuration to
 * {@link #configure}. Subclasses choose the admission policy ({@link #admissionFor}) and how a task
 * gets its virtual thread ({@link #launch}).
 */
public abstract class AbstractVirtualThreadPool extends AbstractExecutorService
        implements ConfigAwareElement<ThreadPool>, VirtualThreadPoolMXBean {

    public static final String JMX_DOMAIN = "dev.loomlab";

    private static final Logger LOG = Logger.getLogger(AbstractVirtualThreadPool.class.getName());
    private static final AtomicInteger UNCONFIGURED_POOLS = new AtomicInteger();

    protected final PoolMetrics metrics = new PoolMetrics();
    private final PoolLifecycle lifecycle = new PoolLifecycle();
    private final Set<Job> notYetRunning = ConcurrentHashMap.newKeySet();
    private final Set<Thread> runningThreads = ConcurrentHashMap.newKeySet();
    private final ReentrantLock terminationLock = new ReentrantLock();
    private final Condition terminated = terminationLock.newCondition();

    private volatile String poolName;
    private volatile ThreadFactory threadFactory;
    private volatile ClassLoader taskClassLoader;
    private volatile Admission admission = Admission.unlimited();
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

    /** Starts {@code body} on a virtual thread (a new one, or one this pool keeps); throws if it cannot. */
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
        Optional<GrizzlyTask> grizzly = GrizzlyTask.of(task);
        if (!lifecycle.tryEnter()) {
            refuse(grizzly, poolName + " is shut down");
            return;
        }
        // Closing a connection is bookkeeping, not a request: it never waits behind requests for a
        // place, nor takes one from them.
        Admission gate = grizzly.filter(GrizzlyTask::isClose).isPresent() ? Admission.unlimited() : admission;
        if (!gate.tryReserve()) {
            exit();
            refuse(grizzly, poolName + " is full: " + gate.maxConcurrent() + " running and " + gate.maxWaiting() + " waiting");
            return;
        }
        Job job = new Job(task, gate);
        notYetRunning.add(job);
        metrics.accepted();
        try {
            launch(job);
        } catch (RuntimeException | Error e) {
            notYetRunning.remove(job);
            gate.cancel();
            metrics.startFailed();
            exit();
            if (grizzly.isPresent()) {
                LOG.log(Level.WARNING, poolName + " could not start a virtual thread; refused " + grizzly.get(), e);
                grizzly.get().refuse();
                return;
            }
            throw new RejectedExecutionException(poolName + " could not start a virtual thread", e);
        }
    }

    /**
     * A task of Grizzly's selector is refused the way a server refuses a request (a 503, then the
     * connection closed; see {@link GrizzlyTask#refuse}) and never by throwing into the selector;
     * any other caller gets the {@code Executor} contract's exception.
     */
    private void refuse(Optional<GrizzlyTask> grizzly, String why) {
        metrics.rejected();
        if (grizzly.isEmpty()) {
            throw new RejectedExecutionException(why);
        }
        LOG.fine(() -> why + ": refused " + grizzly.get());
        grizzly.get().refuse();
    }

    private void exit() {
        if (lifecycle.exit()) {
            terminated();
        }
    }

    /**
     * An accepted task on its way to running: it may still wait for its virtual thread to start
     * or for a permit. Exactly one of "it runs" and "shutdownNow drains it" wins.
     */
    private final class Job implements Runnable {
        private static final int QUEUED = 0;
        private static final int RUNNING = 1;
        private static final int DRAINED = 2;

        private final Runnable task;
        private final Admission gate;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private volatile Thread thread;

        Job(Runnable task, Admission gate) {
            this.task = task;
            this.gate = gate;
        }

        /** Called by shutdownNow: true if the task will never run; its waiting thread is woken. */
        boolean drain() {
            if (!state.compareAndSet(QUEUED, DRAINED)) {
                return false;
            }
            // Written after the state, read after the thread field is set in run(): one of the two sees the other.
            Thread waiting = thread;
            if (waiting != null) {
                waiting.interrupt();
            }
            return true;
        }

        @Override
        public void run() {
            Thread me = Thread.currentThread();
            thread = me;
            if (state.get() != QUEUED) {
                gate.cancel();
                ended();
                return;
            }
            me.setContextClassLoader(taskClassLoader);
            if (!acquirePermitUnlessDrained()) {
                gate.cancel();
                ended();
                return;
            }
            // Registered before the task is marked running, so shutdownNow interrupts it either way.
            runningThreads.add(me);
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                runningThreads.remove(me);
                gate.release();
                ended();
                return;
            }
            notYetRunning.remove(this);
            metrics.runs();
            try {
                task.run();
            } catch (Throwable t) {
                LOG.log(Level.WARNING, poolName + ": task failed", t);
            } finally {
                metrics.finishes();
                runningThreads.remove(me);
                gate.release();
                ended();
            }
        }

        /** Waits for a permit; false when shutdownNow drained the task meanwhile (it then never runs). */
        private boolean acquirePermitUnlessDrained() {
            boolean strayInterrupt = false;
            try {
                while (true) {
                    try {
                        gate.acquire(metrics);
                        return true;
                    } catch (InterruptedException e) {
                        if (state.get() == DRAINED) {
                            return false;
                        }
                        strayInterrupt = true; // not ours: keep waiting, and hand the flag to the task
                    }
                }
            } finally {
                if (strayInterrupt) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private void ended() {
            metrics.completes();
            exit();
        }
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    @Override
    public void shutdown() {
        if (lifecycle.shutdown()) {
            terminated();
        }
        unregisterMBean();
    }

    /**
     * Refuses new tasks, interrupts the running ones and returns, without waiting, the tasks that were
     * accepted but never started (still waiting for a permit or for their thread). Like Grizzly's own
     * pool, in-flight requests are interrupted at once; for a graceful stop use {@link #shutdown()}
     * and {@link #awaitTermination}.
     */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        List<Runnable> neverStarted = new ArrayList<>();
        for (Job job : notYetRunning) {
            if (job.drain()) {
                notYetRunning.remove(job);
                neverStarted.add(job.task);
            }
        }
        runningThreads.forEach(Thread::interrupt);
        return neverStarted;
    }

    @Override
    public boolean isShutdown() {
        return lifecycle.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return lifecycle.isTerminated();
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

    /** The last task has ended after shutdown (called once per pool). */
    private void terminated() {
        terminationLock.lock();
        try {
            terminated.signalAll();
        } finally {
            terminationLock.unlock();
        }
        onTerminated();
    }

    /** Hook for a subclass to release what it holds (idle threads) once the pool has terminated. */
    protected void onTerminated() {
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
