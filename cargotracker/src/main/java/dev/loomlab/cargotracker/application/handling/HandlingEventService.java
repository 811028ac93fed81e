package dev.loomlab.cargotracker.application.handling;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.events.HandlingEventRegistered;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import dev.loomlab.cargotracker.domain.location.LocationRepository;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;

/**
 * Registers handling reports from the field. The cargo is not touched here: registering is a
 * quick insert, and the cargo is inspected asynchronously once the event has committed.
 */
@ApplicationScoped
@Transactional
public class HandlingEventService {

    /** Hand-held clocks drift; a report a little ahead of the server clock is still believable. */
    static final Duration CLOCK_TOLERANCE = Duration.ofMinutes(15);

    @Inject
    CargoRepository cargos;
    @Inject
    LocationRepository locations;
    @Inject
    VoyageRepository voyages;
    @Inject
    HandlingEventRepository events;
    @Inject
    Clock clock;
    @Inject
    Event<HandlingEventRegistered> registered;

    public HandlingEvent register(HandlingReport report) {
        check(report);
        HandlingEvent event = new HandlingEvent(report.trackingId(), report.activity(), report.completionTime(),
                Clocks.now(clock));
        events.store(event);
        registered.fire(new HandlingEventRegistered(report.trackingId(), event.id()));
        return event;
    }

    /**
     * Everything {@link #register} checks, without writing: the cargo, the place and the voyage
     * exist, the voyage calls at the place, and the event did not happen in the future.
     */
    // A refusal here is an answer, not a failure: it must not doom the caller's transaction (the CSV import
    // checks each line inside the chunk's transaction and goes on with the next one).
    @Transactional(dontRollbackOn = DomainException.class)
    public void check(HandlingReport report) {
        cargos.require(report.trackingId());
        HandlingActivity activity = report.activity();
        locations.require("unLocode", activity.location());
        if (activity.voyage() != null) {
            Voyage voyage = voyages.require(activity.voyage());
            if (!voyage.schedule().callsAt(activity.location())) {
                throw new DomainException("voyageNumber", "Voyage " + activity.voyage() + " does not call at "
                        + activity.location() + "; it calls at " + voyage.schedule().portsOfCall() + ".");
            }
        }
        LocalDateTime latest = Clocks.now(clock).plus(CLOCK_TOLERANCE);
        if (report.completionTime().isAfter(latest)) {
            throw new DomainException("completionTime", "The completion time " + report.completionTime()
                    + " is in the future; report events once they have happened (times are UTC).");
        }
    }
}
