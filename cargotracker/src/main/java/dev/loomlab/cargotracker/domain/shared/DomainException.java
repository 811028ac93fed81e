package dev.loomlab.cargotracker.domain.shared;

/**
 * A request the domain refuses, with a message written for the person who made it: the pages show
 * it as is and the REST API returns it in its 400 answer.
 */
public class DomainException extends RuntimeException {

    private final String field;

    public DomainException(String message) {
        this(null, message);
    }

    /** @param field the input the problem is about (e.g. "unLocode"), or null when it is not one input */
    public DomainException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
