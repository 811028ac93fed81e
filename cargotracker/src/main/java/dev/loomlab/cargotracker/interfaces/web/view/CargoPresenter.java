package dev.loomlab.cargotracker.interfaces.web.view;

import dev.loomlab.cargotracker.application.queries.CargoSummary;
import dev.loomlab.cargotracker.application.queries.LocationCatalog;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.Delivery;
import dev.loomlab.cargotracker.domain.cargo.Itinerary;
import dev.loomlab.cargotracker.domain.cargo.Leg;
import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Words and formats cargo for the pages: status sentences, place names, dates. */
@ApplicationScoped
public class CargoPresenter {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("EEE d MMM yyyy, HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d MMM yyyy", Locale.ENGLISH);

    @Inject
    LocationCatalog locations;

    public CargoView view(Cargo cargo, HandlingHistory history) {
        Delivery d = cargo.delivery();
        Itinerary itinerary = cargo.itinerary();
        return new CargoView(
                cargo.trackingId().id(),
                place(cargo.routeSpecification().origin()),
                place(cargo.routeSpecification().destination()),
                cargo.routeSpecification().arrivalDeadline().format(DAY),
                time(cargo.bookedAt()),
                d.routingStatus().label(),
                d.routingStatus().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                d.transportStatus().label(),
                headline(d.transportStatus(), d.isUnloadedAtDestination(), d.lastKnownLocation().orElse(null),
                        d.currentVoyage().map(Object::toString).orElse("")),
                d.isMisdirected(),
                d.routingStatus() == RoutingStatus.ROUTED,
                d.transportStatus() == TransportStatus.CLAIMED,
                d.isUnloadedAtDestination(),
                d.transportStatus() == TransportStatus.NOT_RECEIVED || d.transportStatus() == TransportStatus.IN_PORT,
                d.eta().map(CargoPresenter::time).orElse(d.isMisdirected() ? "Unknown until re-routed" : "—"),
                d.nextExpectedActivity().map(this::instruction).orElse("—"),
                d.lastKnownLocation().map(this::place).orElse("—"),
                d.currentVoyage().map(Object::toString).orElse("—"),
                itinerary.legs().stream().map(this::leg).toList(),
                events(history, d.isMisdirected()));
    }

    public CargoView view(Cargo cargo) {
        return view(cargo, HandlingHistory.EMPTY);
    }

    public List<CargoView.LegView> legs(Itinerary itinerary) {
        return itinerary.legs().stream().map(this::leg).toList();
    }

    /** "Rotterdam (NLRTM)". */
    public String place(UnLocode code) {
        return locations.nameOf(code) + " (" + code + ")";
    }

    public static String time(LocalDateTime time) {
        return time.format(TIME);
    }

    /** A list row: the columns of a cargo list, without itinerary or history. */
    public CargoView row(CargoSummary c) {
        boolean routed = c.routingStatus() == RoutingStatus.ROUTED;
        UnLocode last = c.lastKnownLocation();
        String voyage = c.currentVoyage() == null ? null : c.currentVoyage().number();
        return new CargoView(c.trackingId(), place(c.origin()), place(c.destination()),
                c.arrivalDeadline().format(DAY), time(c.bookedAt()), c.routingStatus().label(),
                c.routingStatus().name().toLowerCase(Locale.ROOT).replace('_', '-'), c.transportStatus().label(),
                headline(c.transportStatus(), c.unloadedAtDestination(), last, voyage == null ? "" : voyage),
                c.misdirected(), routed, c.transportStatus() == TransportStatus.CLAIMED, c.unloadedAtDestination(),
                c.transportStatus() == TransportStatus.NOT_RECEIVED || c.transportStatus() == TransportStatus.IN_PORT,
                c.eta() == null ? (c.misdirected() ? "Unknown until re-routed" : "—") : time(c.eta()),
                "—", last == null ? "—" : place(last), voyage == null ? "—" : voyage,
                List.of(), List.of());
    }

    private String headline(TransportStatus status, boolean arrived, UnLocode lastKnown, String voyage) {
        String where = lastKnown == null ? "" : locations.nameOf(lastKnown);
        return switch (status) {
            case NOT_RECEIVED -> "Not received yet";
            case IN_PORT -> arrived ? "Arrived in " + where : "In port in " + where;
            case ONBOARD_CARRIER -> "On board voyage " + voyage;
            case CLAIMED -> "Claimed in " + where;
        };
    }

    /** What should happen next, as an instruction: "Load onto voyage X in Hong Kong". */
    private String instruction(HandlingActivity next) {
        String where = locations.nameOf(next.location());
        return switch (next.type()) {
            case RECEIVE -> "Receive in " + where;
            case LOAD -> "Load onto voyage " + next.voyage() + " in " + where;
            case UNLOAD -> "Unload from voyage " + next.voyage() + " in " + where;
            case CUSTOMS -> "Clear customs in " + where;
            case CLAIM -> "Claim in " + where;
        };
    }

    private CargoView.LegView leg(Leg leg) {
        return new CargoView.LegView(leg.voyage().number(), place(leg.loadLocation()), time(leg.loadTime()),
                place(leg.unloadLocation()), time(leg.unloadTime()));
    }

    /** The history, the last event marked unexpected when it is what made the cargo misdirected. */
    private List<CargoView.EventView> events(HandlingHistory history, boolean misdirected) {
        List<HandlingEvent> events = history.events();
        return java.util.stream.IntStream.range(0, events.size())
                .mapToObj(i -> event(events.get(i), !(misdirected && i == events.size() - 1)))
                .toList();
    }

    private CargoView.EventView event(HandlingEvent event, boolean expected) {
        String where = locations.nameOf(event.location());
        String text = switch (event.type()) {
            case LOAD -> "Loaded onto voyage " + event.voyage() + " in " + where;
            case UNLOAD -> "Unloaded from voyage " + event.voyage() + " in " + where;
            default -> event.type().pastTense() + " in " + where;
        };
        return new CargoView.EventView(text, time(event.completionTime()), expected);
    }
}
