package dev.loomlab.cargotracker.domain.voyage;

import dev.loomlab.cargotracker.domain.shared.NotFoundException;

public class UnknownVoyageException extends NotFoundException {

    public UnknownVoyageException(VoyageNumber number) {
        super("voyageNumber", "No voyage " + number + " is known.");
    }
}
