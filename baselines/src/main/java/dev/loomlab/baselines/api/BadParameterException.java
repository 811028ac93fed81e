package dev.loomlab.baselines.api;

/** A query parameter the lab refuses; answered as HTTP 400 naming the parameter and what it allows. */
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
}
