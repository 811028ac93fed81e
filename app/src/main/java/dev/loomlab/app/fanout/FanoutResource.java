package dev.loomlab.app.fanout;

import dev.loomlab.api.FanoutRequest;
import dev.loomlab.app.api.JsonBuilders;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * {@code POST /api/fanout?tasks=10&minMs=50&maxMs=100} with a JSON object as body: the shape of a
 * service that calls ten slow downstream services at once. Parses the body, runs {@code tasks}
 * blocking sleeps concurrently (see {@link FanoutExecutors} for which threads), and answers when
 * all are done with the body echoed and each task's timings.
 *
 * <p>The body is parsed as JSON whatever its Content-Type, so every load tool can send it.
 */
@ApplicationScoped
@Path("fanout")
public class FanoutResource {

    @Inject
    FanoutExecutors executors;

    /** One task's record: when it started and ended after the request began, and on which thread. */
    record TaskTiming(int task, long startMicros, long endMicros, int sleptMs, boolean virtual, String thread) {
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject fanout(@QueryParam("tasks") String tasks, @QueryParam("minMs") String minMs,
                             @QueryParam("maxMs") String maxMs, InputStream body)
            throws IOException, InterruptedException, ExecutionException {
        FanoutRequest request = FanoutRequest.parse(tasks, minMs, maxMs);
        JsonObject echoed = FanoutBody.read(body);
        long began = System.nanoTime();
        List<TaskTiming> timings = new ArrayList<>(request.tasks());
        String kind;
        try (FanoutExecutors.Lease lease = executors.forCurrentThread()) {
            kind = lease.kind();
            List<Future<TaskTiming>> futures = new ArrayList<>(request.tasks());
            for (int i = 0; i < request.tasks(); i++) {
                futures.add(lease.executor().submit(task(i, request, began)));
            }
            for (Future<TaskTiming> future : futures) {
                timings.add(future.get());
            }
        }
        long elapsedMicros = (System.nanoTime() - began) / 1_000;
        Thread thread = Thread.currentThread();
        JsonArrayBuilder taskArray = JsonBuilders.array();
        for (TaskTiming t : timings) {
            taskArray.add(JsonBuilders.object()
                    .add("task", t.task())
                    .add("startMs", t.startMicros() / 1000.0)
                    .add("endMs", t.endMicros() / 1000.0)
                    .add("sleptMs", t.sleptMs())
                    .add("virtual", t.virtual())
                    .add("thread", t.thread()));
        }
        return JsonBuilders.object()
                .add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("executor", kind)
                .add("tasks", request.tasks())
                .add("elapsedMs", elapsedMicros / 1000.0)
                .add("body", echoed)
                .add("timings", taskArray)
                .build();
    }

    private static Callable<TaskTiming> task(int index, FanoutRequest request, long began) {
        return () -> {
            long start = System.nanoTime();
            int sleptMs = request.sleep().drawMs();
            Thread.sleep(sleptMs);
            Thread thread = Thread.currentThread();
            return new TaskTiming(index, (start - began) / 1_000, (System.nanoTime() - began) / 1_000, sleptMs,
                    thread.isVirtual(), thread.getName());
        };
    }
}
