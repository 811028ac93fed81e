package dev.loomlab.app.api;

/** A query parameter the lab refuses; answered as HTTP 400 by {@link BadParameterMapper}. */
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
