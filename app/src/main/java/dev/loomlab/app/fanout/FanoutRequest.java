package dev.loomlab.app.fanout;

import dev.loomlab.app.api.QueryParameters;
import dev.loomlab.app.sleep.SleepRequest;

/**
 * The validated query of {@code POST /api/fanout}: how many blocking calls, and the uniform range
 * each one sleeps in. The sleeps obey the sleep endpoint's cap ({@code -Dloomlab.sleep.maxMs}).
 */
public record FanoutRequest(int tasks, SleepRequest sleep) {

    /** Most tasks per request; raise with {@code -Dloomlab.fanout.maxTasks=}. */
    public static final String MAX_TASKS_PROPERTY = "loomlab.fanout.maxTasks";
    public static final int DEFAULT_MAX_TASKS = 100;
    public static final int DEFAULT_TASKS = 10;
    public static final int DEFAULT_MIN_MS = 50;
    public static final int DEFAULT_MAX_MS = 100;

    public static FanoutRequest parse(String tasks, String minMs, String maxMs) {
        int maxSleep = QueryParameters.cap(SleepRequest.MAX_MS_PROPERTY, 60_000);
        int count = QueryParameters.intInRange("tasks", tasks, 1, QueryParameters.cap(MAX_TASKS_PROPERTY, DEFAULT_MAX_TASKS), DEFAULT_TASKS);
        int low = QueryParameters.intInRange("minMs", minMs, 0, maxSleep, DEFAULT_MIN_MS);
        int high = QueryParameters.intInRange("maxMs", maxMs, 0, maxSleep, DEFAULT_MAX_MS);
        QueryParameters.requireOrdered("minMs", low, "maxMs", high);
        return new FanoutRequest(count, new SleepRequest(low, high, 0));
    }
}
