package dev.loomlab.baselines.vertx;

import dev.loomlab.api.SleepRequest;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * How a model waits for a slow call: as a future either way, so the routes are the same code.
 * Virtual: the call blocks (Thread.sleep) on a new virtual thread. Event loop: a timer, no thread waits.
 */
abstract class Waits implements AutoCloseable {

    /** One fan-out task's record, in microseconds after the request began. */
    record TaskTiming(int task, long startMicros, long endMicros, int sleptMs, boolean virtual, String thread) {
    }

    /** The sleep endpoint's wait at a call depth; the future holds the depth reached. */
    abstract Future<Integer> sleep(int depth, int ms);

    /** One fan-out task of {@code ms}; {@code began} is the request's System.nanoTime(). */
    abstract Future<TaskTiming> task(int index, int ms, long began);

    @Override
    public void close() {
    }

    static Waits forModel(VertxModel model, Vertx vertx) {
        return model == VertxModel.VIRTUAL ? new Blocking() : new Timers(vertx);
    }

    static TaskTiming timing(int index, long start, long began, int ms) {
        Thread thread = Thread.currentThread();
        return new TaskTiming(index, (start - began) / 1_000, (System.nanoTime() - began) / 1_000, ms,
                thread.isVirtual(), thread.getName());
    }

    /** Blocking calls, each on a new virtual thread (the seed's "submit to virtual threads"). */
    static final class Blocking extends Waits {
        private final ExecutorService sleepers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sleep-virtual-", 0).factory());
        private final ExecutorService tasks = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("fanout-virtual-", 0).factory());

        @Override
        Future<Integer> sleep(int depth, int ms) {
            return Future.fromCompletionStage(CompletableFuture.supplyAsync(() -> {
                try {
                    return SleepRequest.descendThenSleep(depth, ms);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            }, sleepers));
        }

        @Override
        Future<TaskTiming> task(int index, int ms, long began) {
            return Future.fromCompletionStage(CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                try {
                    Thread.sleep(ms);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                return timing(index, start, began, ms);
            }, tasks));
        }

        @Override
        public void close() {
            sleepers.shutdownNow();
            tasks.shutdownNow();
        }
    }

    /** Timers on the event loop: the reactive baseline, where no thread waits at all. */
    static final class Timers extends Waits {
        private final Vertx vertx;

        Timers(Vertx vertx) {
            this.vertx = vertx;
        }

        @Override
        Future<Integer> sleep(int depth, int ms) {
            return descendThenTimer(depth, ms);
        }

        /** Sets the timer {@code depth} frames down, as the blocking servers sleep there (the stack unwinds at once). */
        private Future<Integer> descendThenTimer(int framesLeft, int ms) {
            if (framesLeft == 0) {
                Promise<Integer> done = Promise.promise();
                vertx.setTimer(Math.max(1, ms), id -> done.complete(0));
                return done.future();
            }
            return descendThenTimer(framesLeft - 1, ms).map(reached -> reached + 1);
        }

        @Override
        Future<TaskTiming> task(int index, int ms, long began) {
            long start = System.nanoTime();
            Promise<TaskTiming> done = Promise.promise();
            vertx.setTimer(Math.max(1, ms), id -> done.complete(timing(index, start, began, ms)));
            return done.future();
        }
    }
}
