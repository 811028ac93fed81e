package dev.loomlab.baselines.http;

import dev.loomlab.api.ServerDescription;
import dev.loomlab.baselines.api.FanoutTasks;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

/**
 * The four ways the JDK server gives a request its thread. Everything else about the servers is
 * the same code; the thread names say which kind served a request.
 */
public enum JdkServerKind {

    THREAD_PER_REQUEST("thread-per-request", "a new platform thread per request, unbounded") {
        @Override
        public ExecutorService executor(int threads) {
            return Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("request-platform-", 1).factory());
        }

        @Override
        public FanoutTasks fanoutTasks(int threads) {
            return FanoutTasks.platformPerTask();
        }

        @Override
        public ServerDescription describe(int threads) {
            return new ServerDescription("jdk-thread-per-request", "JDK HttpServer: " + description, null);
        }
    },

    EXECUTOR("executor", "a fixed pool of N platform threads (-Dthreads), requests queue for them") {
        @Override
        public ExecutorService executor(int threads) {
            // Threads are created on demand up to N, as the classic lab's executor did; the queue is unbounded.
            return Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("pool-platform-", 1).factory());
        }

        @Override
        public FanoutTasks fanoutTasks(int threads) {
            return FanoutTasks.platformPool(threads);
        }

        @Override
        public ServerDescription describe(int threads) {
            return new ServerDescription("jdk-executor-" + threads, "JDK HttpServer: a pool of " + threads + " platform threads", threads);
        }
    },

    VIRTUAL("virtual", "a new virtual thread per request, unbounded") {
        @Override
        public ExecutorService executor(int threads) {
            return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("request-virtual-", 1).factory());
        }

        @Override
        public FanoutTasks fanoutTasks(int threads) {
            return FanoutTasks.virtualPerTask();
        }

        @Override
        public ServerDescription describe(int threads) {
            return new ServerDescription("jdk-virtual", "JDK HttpServer: " + description, null);
        }
    },

    VIRTUAL_BOUNDED("virtual-bounded", "a new virtual thread per request, at most N (-Dthreads) running at once") {
        @Override
        public ExecutorService executor(int threads) {
            return new BoundedVirtualExecutor(threads, Thread.ofVirtual().name("bounded-virtual-", 1).factory());
        }

        @Override
        public FanoutTasks fanoutTasks(int threads) {
            return FanoutTasks.virtualPerTask();
        }

        @Override
        public ServerDescription describe(int threads) {
            return new ServerDescription("jdk-virtual-" + threads,
                    "JDK HttpServer: a new virtual thread per request, at most " + threads + " at once", threads);
        }
    };

    private final String cliName;
    final String description;

    JdkServerKind(String cliName, String description) {
        this.cliName = cliName;
        this.description = description;
    }

    /** The executor the HTTP server hands each exchange to; {@code threads} is ignored by the unbounded kinds. */
    public abstract ExecutorService executor(int threads);

    public abstract ServerDescription describe(int threads);

    /** Where the fan-out's tasks run: the same kind of thread as the requests, with the same limit. */
    public abstract FanoutTasks fanoutTasks(int threads);

    public String cliName() {
        return cliName;
    }

    public String description() {
        return description;
    }

    /** Whether {@code -Dthreads} means anything for this kind. */
    public boolean bounded() {
        return this == EXECUTOR || this == VIRTUAL_BOUNDED;
    }

    public static JdkServerKind fromCliName(String name) {
        return Arrays.stream(values()).filter(k -> k.cliName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown server '" + name + "'; choose one of: " + cliNames()));
    }

    public static String cliNames() {
        return Arrays.stream(values()).map(JdkServerKind::cliName).collect(Collectors.joining(" | "));
    }
}
