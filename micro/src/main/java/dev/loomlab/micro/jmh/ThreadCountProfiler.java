package dev.loomlab.micro.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A thread-count view per JMH iteration: {@code -prof dev.loomlab.micro.jmh.ThreadCountProfiler}.
 * <p>
 * JMH's own {@code hs_thr} profiler reads HotSpot-internal MBeans that recent JDKs no longer
 * offer, so this one uses public ones. From {@link ThreadMXBean}: platform threads started during
 * the iteration and the peak number alive. Virtual threads never appear there (the JDK counts
 * platform threads only), which is the point: a thousand virtual threads per op leave these
 * numbers flat. What virtual threads do use is the carrier pool, read from
 * {@code jdk.management.VirtualThreadSchedulerMXBean} (JDK 24+; the carrier metrics are left out
 * on older JDKs): its peak size, and the peak number of virtual threads mounted on a carrier and
 * queued waiting for one, sampled every few milliseconds.
 */
public final class ThreadCountProfiler implements InternalProfiler {

    private static final long SAMPLE_PERIOD_MS = 5;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final CarrierPool carriers = CarrierPool.find();
    private long startedBefore;
    private CarrierSampler sampler;

    @Override
    public String getDescription() {
        return "Platform threads started/peak (ThreadMXBean) and virtual-thread carrier pool peaks";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (carriers != null) {
            // Started before the baseline is read, so the sampler is not counted as a started thread.
            sampler = new CarrierSampler(carriers);
            sampler.start();
        }
        threads.resetPeakThreadCount();
        startedBefore = threads.getTotalStartedThreadCount();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long started = threads.getTotalStartedThreadCount() - startedBefore;
        List<Result> results = new ArrayList<>();
        results.add(new ScalarResult("threads.started", started, "threads", AggregationPolicy.SUM));
        results.add(new ScalarResult("threads.peak", threads.getPeakThreadCount(), "threads", AggregationPolicy.MAX));
        if (sampler != null) {
            sampler.stopAndJoin();
            results.add(new ScalarResult("carriers.peak", sampler.peakPoolSize, "threads", AggregationPolicy.MAX));
            results.add(new ScalarResult("vthreads.mounted.peak", sampler.peakMounted, "threads", AggregationPolicy.MAX));
            results.add(new ScalarResult("vthreads.queued.peak", sampler.peakQueued, "threads", AggregationPolicy.MAX));
            sampler = null;
        }
        return results;
    }

    /** The virtual-thread scheduler's MXBean, through reflection so the module still compiles for JDK 21. */
    record CarrierPool(PlatformManagedObject bean, Method poolSize, Method mounted, Method queued) {

        static CarrierPool find() {
            try {
                Class<? extends PlatformManagedObject> type = Class
                        .forName("jdk.management.VirtualThreadSchedulerMXBean")
                        .asSubclass(PlatformManagedObject.class);
                return new CarrierPool(ManagementFactory.getPlatformMXBean(type),
                        type.getMethod("getPoolSize"),
                        type.getMethod("getMountedVirtualThreadCount"),
                        type.getMethod("getQueuedVirtualThreadCount"));
            } catch (ReflectiveOperationException | IllegalArgumentException e) {
                return null;
            }
        }

        long read(Method metric) {
            try {
                return ((Number) metric.invoke(bean)).longValue();
            } catch (ReflectiveOperationException e) {
                return -1;
            }
        }
    }

    /** Samples the carrier pool on its own platform thread while the iteration runs. */
    private static final class CarrierSampler extends Thread {
        private final CarrierPool pool;
        private volatile boolean running = true;
        // Written by the sampler, read after join.
        private long peakPoolSize;
        private long peakMounted;
        private long peakQueued;

        CarrierSampler(CarrierPool pool) {
            super("thread-count-sampler");
            setDaemon(true);
            this.pool = pool;
        }

        @Override
        public void run() {
            while (running) {
                peakPoolSize = Math.max(peakPoolSize, pool.read(pool.poolSize()));
                peakMounted = Math.max(peakMounted, pool.read(pool.mounted()));
                peakQueued = Math.max(peakQueued, pool.read(pool.queued()));
                try {
                    Thread.sleep(SAMPLE_PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopAndJoin() {
            running = false;
            interrupt();
            try {
                join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
