package dev.loomlab.micro.jmh;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;

/**
 * Runs {@code count} copies of a task at once, each on a new thread of one kind, and waits for
 * all of them: the thread-per-task model, with only the kind of thread left to choose.
 */
public final class TaskFanOut {

    private TaskFanOut() {
    }

    /** Returns the sum of the tasks' results; the first task failure is rethrown. */
    public static long runAll(int count, ThreadFactory threads, Callable<Long> task)
            throws InterruptedException, ExecutionException {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        // close() waits for every task, so no thread outlives the op.
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(threads)) {
            List<Future<Long>> results = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                results.add(executor.submit(task));
            }
            long sum = 0;
            for (Future<Long> result : results) {
                sum += result.get();
            }
            return sum;
        }
    }
}
