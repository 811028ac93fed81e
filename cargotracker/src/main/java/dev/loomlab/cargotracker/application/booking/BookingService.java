package dev.loomlab.cargotracker.application.booking;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.events.CargoUpdated;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.RouteSpecification;
import dev.loomlab.cargotracker.domain.cargo.RoutingService;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.location.LocationRepository;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * The booking desk: books cargo, proposes routes, assigns one, and changes what the customer asked
 * for. Each method is one transaction: on any refusal nothing is written.
 */
@ApplicationScoped
@Transactional
public class BookingService {

    @Inject
    CargoRepository cargos;
    @Inject
    LocationRepository locations;
    @Inject
    VoyageRepository voyages;
    @Inject
    RoutingService routing;
    @Inject
    Clock clock;
    @Inject
    Event<CargoUpdated> updates;

    public TrackingId bookNewCargo(UnLocode origin, UnLocode destination, LocalDate arrivalDeadline) {
        locations.require("origin", origin);
        locations.require("destination", destination);
        RouteSpecification spec = RouteSpecification.forBooking(origin, destination, arrivalDeadline, Clocks.today(clock));
        LocalDateTime now = Clocks.now(clock);
        Cargo cargo = new Cargo(cargos.nextTrackingId(), spec, now);
        cargos.store(cargo);
        updates.fire(CargoUpdated.of(cargo, "booked", now));
        return cargo.trackingId();
    }

    /**
     * Routes the cargo could take from where it stands now: from its origin before it is received,
     * from its current port afterwards (a misdirected cargo is re-routed from where it was found).
     */
    @Transactional(dontRollbackOn = DomainException.class)
    public List<Itinerary> routeCandidates(TrackingId trackingId) {
        Cargo cargo = cargos.require(trackingId);
        return routing.routesFor(specificationFromCurrentLocation(cargo), earliestDeparture(cargo));
    }

    public void assignRoute(TrackingId trackingId, Itinerary itinerary) {
        Cargo cargo = cargos.require(trackingId);
        if (itinerary.isEmpty()) {
            throw new DomainException("itinerary", "A route needs at least one leg.");
        }
        for (Leg leg : itinerary.legs()) {
            voyages.require(leg.voyage());
        }
        RouteSpecification spec = specificationFromCurrentLocation(cargo);
        if (!spec.isSatisfiedBy(itinerary)) {
            throw new DomainException("itinerary", "This route does not take the cargo from " + spec.origin() + " to "
                    + spec.destination() + " by " + spec.arrivalDeadline() + ".");
        }
        LocalDateTime now = Clocks.now(clock);
        if (!spec.equals(cargo.routeSpecification())) {
            cargo.specifyNewRoute(spec, now);
        }
        cargo.assignToRoute(itinerary, now);
        updates.fire(CargoUpdated.of(cargo, "routed", now));
    }

    public void changeDestination(TrackingId trackingId, UnLocode destination) {
        Cargo cargo = cargos.require(trackingId);
        locations.require("destination", destination);
        requireNotClaimed(cargo);
        LocalDateTime now = Clocks.now(clock);
        cargo.specifyNewRoute(cargo.routeSpecification().withDestination(destination), now);
        updates.fire(CargoUpdated.of(cargo, "destination changed", now));
    }

    public void changeDeadline(TrackingId trackingId, LocalDate deadline) {
        Cargo cargo = cargos.require(trackingId);
        requireNotClaimed(cargo);
        LocalDateTime now = Clocks.now(clock);
        cargo.specifyNewRoute(cargo.routeSpecification().withDeadline(deadline, Clocks.today(clock)), now);
        updates.fire(CargoUpdated.of(cargo, "deadline changed", now));
    }

    private RouteSpecification specificationFromCurrentLocation(Cargo cargo) {
        TransportStatus status = cargo.delivery().transportStatus();
        if (status == TransportStatus.CLAIMED) {
            throw new DomainException("trackingId", "Cargo " + cargo.trackingId() + " has been claimed: there is nothing left to route.");
        }
        if (status == TransportStatus.ONBOARD_CARRIER) {
            throw new DomainException("trackingId", "Cargo " + cargo.trackingId() + " is on board voyage "
                    + cargo.delivery().currentVoyage().map(Object::toString).orElse("?")
                    + ": it can be re-routed once it is unloaded.");
        }
        RouteSpecification spec = cargo.routeSpecification();
        return cargo.delivery().lastKnownLocation().map(spec::from).orElse(spec);
    }

    private LocalDateTime earliestDeparture(Cargo cargo) {
        LocalDateTime now = Clocks.now(clock);
        return cargo.delivery().lastEventTime().filter(now::isBefore).orElse(now);
    }

    private static void requireNotClaimed(Cargo cargo) {
        if (cargo.delivery().transportStatus() == TransportStatus.CLAIMED) {
            throw new DomainException("trackingId", "Cargo " + cargo.trackingId() + " has been claimed and can no longer be changed.");
        }
    }
}
