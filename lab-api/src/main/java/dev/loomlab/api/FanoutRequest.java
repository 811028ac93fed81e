package dev.loomlab.api;

/**
 * The validated query of {@code POST /api/fanout}: {@code tasks} blocking calls (default 10, at
 * most {@link Limit#FANOUT_MAX_TASKS}), each sleeping a uniform draw from {@code minMs..maxMs}
 * (default 50..100, under the sleep endpoint's {@link Limit#SLEEP_MAX_MS}); and the rules of its
 * body, one JSON object of at most {@link Limit#FANOUT_MAX_BODY_BYTES}, which each server checks
 * with its own JSON parser.
 */
public record FanoutRequest(int tasks, SleepRequest sleep) {

    public static final int DEFAULT_TASKS = 10;
    public static final int DEFAULT_MIN_MS = 50;
    public static final int DEFAULT_MAX_MS = 100;

    public static FanoutRequest parse(QueryParameters query) {
        return parse(query.get("tasks"), query.get("minMs"), query.get("maxMs"));
    }

    /** The raw values of {@code tasks}, {@code minMs} and {@code maxMs}; null when absent. */
    public static FanoutRequest parse(String tasks, String minMs, String maxMs) {
        int maxSleep = Limit.SLEEP_MAX_MS.value();
        int count = QueryParameters.intInRange("tasks", tasks, 1, Limit.FANOUT_MAX_TASKS.value(), DEFAULT_TASKS);
        int low = QueryParameters.intInRange("minMs", minMs, 0, maxSleep, DEFAULT_MIN_MS);
        int high = QueryParameters.intInRange("maxMs", maxMs, 0, maxSleep, DEFAULT_MAX_MS);
        QueryParameters.requireOrdered("minMs", low, "maxMs", high);
        return new FanoutRequest(count, new SleepRequest(low, high, 0));
    }

    /** The body cap in bytes. */
    public static int maxBodyBytes() {
        return Limit.FANOUT_MAX_BODY_BYTES.value();
    }

    /** The {@code allowed} text of a refused body. */
    public static String bodyAllowed() {
        return "a JSON object of at most " + maxBodyBytes() + " bytes";
    }

    /** A refused body: a 400 naming {@code "body"}, with {@code problem} as its message. */
    public static BadParameterException badBody(String problem) {
        return new BadParameterException("body", bodyAllowed(), problem);
    }

    public static BadParameterException bodyTooLarge() {
        return badBody("body is larger than " + maxBodyBytes() + " bytes");
    }

    public static BadParameterException bodyMissing() {
        return badBody("body is required: " + bodyAllowed());
    }
}
