package dev.loomlab.micro.jmh;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where virtual threads win and where they do not: an IO task and a CPU task, each run
 * {@code concurrency} times at once with one new thread per task, on virtual or on platform
 * threads. Scores are ops per second (throughput) and seconds per op (average time); one op is
 * the whole batch of {@code concurrency} tasks.
 * <p>
 * IO ({@code task=io}): a blocking HTTP GET to a stub server this benchmark starts on 127.0.0.1,
 * answering after {@code delayMs}. The thread spends nearly all its time waiting, so what can
 * differ is what a waiting thread costs: starting it, parking it, waking it. With one task per op
 * both kinds should be bounded by the delay; with a thousand, platform threads also pay a
 * thousand kernel thread creations per op.
 * <p>
 * CPU ({@code task=cpu}): an EC key-pair generation. Nothing blocks, so both kinds are bounded by
 * the machine's cores; virtual threads cannot add cores, they can only make thread creation and
 * scheduling cheaper (a carrier pool of one thread per core instead of a thousand kernel threads
 * time-sliced by the OS).
 * <p>
 * The fork raises the JDK HTTP keep-alive limits on both ends so connections are reused across
 * ops: otherwise each op would open and close up to a thousand connections and the benchmark
 * would measure TCP handshakes and TIME_WAIT instead of threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {
        "-Dhttp.maxConnections=10000",
        "-Dsun.net.httpserver.maxIdleConnections=10000",
        "-Dsun.net.httpserver.nodelay=true"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class IoVsCpuBenchmark {

    /** Ports this lab reserves for the micro-benchmarks' stub servers. */
    static final int FIRST_STUB_PORT = 18300;
    static final int LAST_STUB_PORT = 18309;

    @Param({"virtual", "platform"})
    public String threads;

    @Param({"io", "cpu"})
    public String task;

    /** Tasks per op, all running at once. */
    @Param({"1", "1000"})
    public int concurrency;

    /** How long the stub server waits before it answers an IO task. */
    @Param("10")
    public int delayMs;

    private DelayedHttpStub stub;
    private ThreadFactory threadFactory;
    private Callable<Long> work;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        threadFactory = ThreadKind.parse(threads).factory();
        work = switch (task) {
            case "io" -> {
                stub = DelayedHttpStub.start(FIRST_STUB_PORT, LAST_STUB_PORT, Duration.ofMillis(delayMs));
                yield new HttpCall(stub.uri());
            }
            case "cpu" -> KeyPairTask.ellipticCurve();
            default -> throw new IllegalArgumentException("task must be io or cpu, was '" + task + "'");
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (stub != null) {
            stub.close();
        }
    }

    @Benchmark
    public long tasks() throws Exception {
        return TaskFanOut.runAll(concurrency, threadFactory, work);
    }
}
