package dev.loomlab.micro.ring;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time per ring: {@code workers} threads in a ring hand one token on {@code passes} times
 * (defaults 503 and 1,000,000, the classic sizes), then all end.
 * <p>
 * Why: a token ring has no parallelism at all, only hand-offs. Each pass blocks one thread and
 * wakes the next, so the score is the price of a context switch. For platform threads that is a
 * kernel futex wake-up and a scheduler switch; for virtual threads it is an unpark that submits
 * the next continuation to the carrier pool, and a yield that unmounts the current one.
 * <p>
 * The third variant runs virtual threads on a single carrier: the ring cannot use a second core
 * anyway, and with one carrier every wake-up is a local queue push instead of a hand-off between
 * cores. Comparing it with the default scheduler shows what the cross-core wake-ups cost, and what
 * it costs when the one carrier, a platform thread, loses its core to other processes.
 * <p>
 * One op is a whole ring: creating and starting the workers, all passes, and the stop signal
 * travelling round so every worker has ended. The score is in milliseconds per ring; divide by
 * {@code passes} for the time per hand-off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class RingBenchmark {

    @Param("503")
    public int workers;

    @Param("1000000")
    public long passes;

    @Benchmark
    public TokenRing.Outcome platformThreads() throws InterruptedException {
        return new TokenRing(workers, passes, Thread.ofPlatform().factory()).run();
    }

    @Benchmark
    public TokenRing.Outcome virtualThreads() throws InterruptedException {
        return new TokenRing(workers, passes, Thread.ofVirtual().factory()).run();
    }

    @Benchmark
    @Fork(jvmArgsAppend = "-Djdk.virtualThreadScheduler.parallelism=1")
    public TokenRing.Outcome virtualThreadsOneCarrier() throws InterruptedException {
        return new TokenRing(workers, passes, Thread.ofVirtual().factory()).run();
    }
}
