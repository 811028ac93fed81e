package dev.loomlab.api;

/**
 * A parameter (or body) the lab refuses. Every server answers it as HTTP 400 with
 * {@link #toJson()}: {@code {"error": message, "parameter": name, "allowed": what it allows}}.
 */
public class BadParameterException extends RuntimeException {

    private final String parameter;
    private final String allowed;

    public BadParameterException(String parameter, String allowed, String message) {
        super(message);
        this.parameter = parameter;
        this.allowed = allowed;
    }

    public String parameter() {
        return parameter;
    }

    public String allowed() {
        return allowed;
    }

    /** The body of the 400 answer. */
    public String toJson() {
        return Json.object()
                .add("error", getMessage())
                .add("parameter", parameter)
                .add("allowed", allowed)
                .toString();
    }
}
