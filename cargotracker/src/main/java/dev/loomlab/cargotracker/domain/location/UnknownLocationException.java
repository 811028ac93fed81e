package dev.loomlab.cargotracker.domain.location;

import dev.loomlab.cargotracker.domain.shared.NotFoundException;

public class UnknownLocationException extends NotFoundException {

    public UnknownLocationException(String field, UnLocode code) {
        super(field, "No location with UN/LOCODE " + code + " is known.");
    }
}
