package dev.loomlab.baselines.api;

/**
 * The validated query of {@code POST /api/fanout}, with the WAR's rules and caps: {@code tasks}
 * blocking calls (1..100, default 10), each sleeping a uniform draw from {@code minMs..maxMs}
 * (default 50..100, capped like the sleep endpoint).
 */
public record FanoutRequest(int tasks, SleepRequest sleep) {

    /** Most tasks per request; raise with {@code -Dloomlab.fanout.maxTasks=} (same property as the WAR). */
    public static final String MAX_TASKS_PROPERTY = "loomlab.fanout.maxTasks";
    public static final int DEFAULT_MAX_TASKS = 100;
    /** Largest body in bytes; raise with {@code -Dloomlab.fanout.maxBodyBytes=} (same property as the WAR). */
    public static final String MAX_BODY_BYTES_PROPERTY = "loomlab.fanout.maxBodyBytes";
    public static final int DEFAULT_MAX_BODY_BYTES = 8192;

    public static FanoutRequest parse(QueryParameters query) {
        int maxSleep = QueryParameters.cap(SleepRequest.MAX_MS_PROPERTY, SleepRequest.DEFAULT_MAX_MS);
        int count = QueryParameters.intInRange("tasks", query.get("tasks"), 1,
                QueryParameters.cap(MAX_TASKS_PROPERTY, DEFAULT_MAX_TASKS), 10);
        int low = QueryParameters.intInRange("minMs", query.get("minMs"), 0, maxSleep, 50);
        int high = QueryParameters.intInRange("maxMs", query.get("maxMs"), 0, maxSleep, 100);
        QueryParameters.requireOrdered("minMs", low, "maxMs", high);
        return new FanoutRequest(count, new SleepRequest(low, high, 0));
    }

    /** The body cap in bytes. */
    public static int maxBodyBytes() {
        return QueryParameters.cap(MAX_BODY_BYTES_PROPERTY, DEFAULT_MAX_BODY_BYTES);
    }

    /** The {@code allowed} text of a refused body. */
    public static String bodyAllowed() {
        return "a JSON object of at most " + maxBodyBytes() + " bytes";
    }
}
