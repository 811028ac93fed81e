package dev.loomlab.cargotracker.application.queries;

import java.util.List;

/** The read side of cargo lists; the persistence layer answers with one query. */
public interface CargoSummaries {

    /** Every cargo, most recently booked first. */
    List<CargoSummary> all();
}
