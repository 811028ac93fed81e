package dev.loomlab.grizzly5pool;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.glassfish.grizzly.config.ConfigAwareElement;
import org.glassfish.grizzly.config.dom.NetworkListener;
import org.glassfish.grizzly.config.dom.ThreadPool;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.grizzly.threadpool.VirtualThreadExecutorService;
import org.glassfish.hk2.api.ServiceLocator;

/**
 * Grizzly 5's own virtual-thread executor, {@code VirtualThreadExecutorService} (what GlassFish 8 runs
 * for a thread pool with {@code virtual=true}), as the HTTP pool of Payara 6 or 7, whose Grizzly 4 has
 * no such executor.
 * <p>
 * The executor is the released class, unchanged: the build moves grizzly-framework into this jar's
 * own package, so that it cannot meet the Grizzly 4 classes of the same names inside Payara. This
 * class only gives Payara's grizzly-config what a {@code classname} pool needs: a public no-arg
 * constructor, {@link #configure} with the {@code <thread-pool>} settings, and the
 * {@code ExecutorService} calls, each handed to the executor.
 * <p>
 * The settings go where Grizzly puts them for its own pools: {@code max-thread-pool-size} is the
 * executor's pool size (tasks that run at once), {@code max-queue-size} its queue limit (tasks that
 * may wait beyond them; -1: no limit). Past both, the executor throws
 * {@code RejectedExecutionException} back to Grizzly's selector: it has no 503 of its own.
 */
public final class Grizzly5VirtualThreadPool extends AbstractExecutorService implements ConfigAwareElement<ThreadPool> {

    private static final Logger LOG = Logger.getLogger(Grizzly5VirtualThreadPool.class.getName());

    // Until Grizzly configures it (or outside Payara): the executor's own unbounded default.
    private volatile VirtualThreadExecutorService executor = VirtualThreadExecutorService.createInstance();

    @Override
    public void configure(ServiceLocator locator, NetworkListener listener, ThreadPool config) {
        ThreadPoolConfig settings = ThreadPoolConfig.defaultConfig()
                .setPoolName(config.getName() + "::" + listener.getName())
                .setMaxPoolSize(intSetting(config.getMaxThreadPoolSize(), "max-thread-pool-size"))
                .setQueueLimit(intSetting(config.getMaxQueueSize(), "max-queue-size"))
                // Grizzly's own pools run tasks with the loader of the listener classes.
                .setInitialClassLoader(ConfigAwareElement.class.getClassLoader());
        VirtualThreadExecutorService unconfigured = executor;
        executor = VirtualThreadExecutorService.createInstance(settings);
        unconfigured.shutdown();
        LOG.info(() -> "Grizzly 5 VirtualThreadExecutorService " + settings.getPoolName() + ": pool size "
                + settings.getMaxPoolSize() + ", queue limit " + settings.getQueueLimit());
    }

    /** A numeric thread-pool attribute; -1 (no limit) when it is missing, with a warning when it is not a number. */
    private static int intSetting(String value, String attribute) {
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            LOG.warning(() -> "thread-pool " + attribute + "=\"" + value + "\" is not a number; no limit");
            return -1;
        }
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }

    @Override
    public void shutdown() {
        executor.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return executor.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return executor.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return executor.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return executor.awaitTermination(timeout, unit);
    }
}
