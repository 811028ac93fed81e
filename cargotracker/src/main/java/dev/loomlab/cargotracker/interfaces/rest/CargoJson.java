package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.cargotracker.application.queries.CargoSummary;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.Delivery;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/** The JSON views of a cargo (JSON-B writes records as objects, times as ISO-8601 UTC without zone). */
public final class CargoJson {

    private CargoJson() {
    }

    public record Summary(String trackingId, String origin, String destination, LocalDate arrivalDeadline,
                   String routingStatus, String transportStatus, boolean misdirected, String lastKnownLocation,
                   LocalDateTime eta) {
    }

    public record Details(String trackingId, String origin, LocalDateTime bookedAt, RouteSpec routeSpecification,
                   List<LegJson> itinerary, DeliveryJson delivery, List<EventJson> history) {
    }

    public record RouteSpec(String origin, String destination, LocalDate arrivalDeadline) {
    }

    public record LegJson(String voyage, String load, LocalDateTime loadTime, String unload, LocalDateTime unloadTime) {
    }

    public record DeliveryJson(String transportStatus, String routingStatus, boolean misdirected, boolean unloadedAtDestination,
                        String lastKnownLocation, String currentVoyage, LocalDateTime eta, Activity nextExpectedActivity,
                        LocalDateTime calculatedAt) {
    }

    public record Activity(String type, String location, String voyage) {
    }

    public record EventJson(String type, String location, String voyage, LocalDateTime completionTime, LocalDateTime registrationTime) {
    }

    static Summary summary(CargoSummary cargo) {
        return new Summary(cargo.trackingId(), cargo.origin().code(), cargo.destination().code(), cargo.arrivalDeadline(),
                cargo.routingStatus().name(), cargo.transportStatus().name(), cargo.misdirected(),
                cargo.lastKnownLocation() == null ? null : cargo.lastKnownLocation().code(), cargo.eta());
    }

    static Details details(Cargo cargo, HandlingHistory history) {
        Delivery d = cargo.delivery();
        return new Details(cargo.trackingId().id(), cargo.origin().code(), cargo.bookedAt(),
                new RouteSpec(cargo.routeSpecification().origin().code(), cargo.routeSpecification().destination().code(),
                        cargo.routeSpecification().arrivalDeadline()),
                cargo.itinerary().legs().stream().map(CargoJson::leg).toList(),
                new DeliveryJson(d.transportStatus().name(), d.routingStatus().name(), d.isMisdirected(),
                        d.isUnloadedAtDestination(), d.lastKnownLocation().map(UnLocode::code).orElse(null),
                        d.currentVoyage().map(VoyageNumber::number).orElse(null), d.eta().orElse(null),
                        d.nextExpectedActivity().map(CargoJson::activity).orElse(null), d.calculatedAt()),
                history.events().stream().map(CargoJson::event).toList());
    }

    static LegJson leg(Leg leg) {
        return new LegJson(leg.voyage().number(), leg.loadLocation().code(), leg.loadTime(),
                leg.unloadLocation().code(), leg.unloadTime());
    }

    private static Activity activity(HandlingActivity a) {
        return new Activity(a.type().name(), a.location().code(), a.voyageIfAny().map(VoyageNumber::number).orElse(null));
    }

    private static EventJson event(HandlingEvent e) {
        return new EventJson(e.type().name(), e.location().code(), e.voyage() == null ? null : e.voyage().number(),
                e.completionTime(), e.registrationTime());
    }
}
