package dev.loomlab.micro.jmh;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;

class ThreadCountProfilerTest {

    private static Map<String, Double> measure(ThreadKind kind, int threads) throws InterruptedException {
        ThreadCountProfiler profiler = new ThreadCountProfiler();
        profiler.beforeIteration(null, null);
        Thread[] started = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            started[i] = kind.factory().newThread(() -> { });
            started[i].start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        Collection<? extends Result> results = profiler.afterIteration(null, null, null);
        return results.stream().collect(Collectors.toMap(Result::getLabel, Result::getScore));
    }

    @Test
    void countsStartedPlatformThreads() throws InterruptedException {
        Map<String, Double> counts = measure(ThreadKind.PLATFORM, 40);
        assertTrue(counts.get("threads.started") >= 40, counts.toString());
    }

    @Test
    void virtualThreadsDoNotShowUpAsStartedThreads() throws InterruptedException {
        Map<String, Double> counts = measure(ThreadKind.VIRTUAL, 200);
        // At most the carrier threads (one per core) and JDK helpers start; never 200.
        assertTrue(counts.get("threads.started") < 50, counts.toString());
    }
}
