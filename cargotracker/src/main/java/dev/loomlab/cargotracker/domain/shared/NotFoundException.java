package dev.loomlab.cargotracker.domain.shared;

/** Something was named by its identity and does not exist: 404 over REST, a message on a page. */
public class NotFoundException extends DomainException {

    public NotFoundException(String field, String message) {
        super(field, message);
    }
}
