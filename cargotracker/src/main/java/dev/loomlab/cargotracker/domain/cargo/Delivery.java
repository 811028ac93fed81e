package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.handling.HandlingActivity;
import dev.loomlab.cargotracker.domain.handling.HandlingEvent;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import java.time.LocalDateTime;
import java.util.Optional;

/**
 * Where the cargo stands, worked out from the route specification, the itinerary and the last
 * handling event. Never edited piece by piece: each change of plan or new event derives a new one,
 * so every field always agrees with the others. Stored with the cargo so lists can filter on it.
 */
@Embeddable
public class Delivery {

    @Enumerated(EnumType.STRING)
    @Column(name = "transport_status", length = 20, nullable = false)
    private TransportStatus transportStatus;

    @Enumerated(EnumType.STRING)
    @Column(name = "routing_status", length = 20, nullable = false)
    private RoutingStatus routingStatus;

    @Column(name = "misdirected", nullable = false)
    private boolean misdirected;

    @Column(name = "unloaded_at_destination", nullable = false)
    private boolean unloadedAtDestination;

    @Column(name = "eta")
    private LocalDateTime eta;

    @Enumerated(EnumType.STRING)
    @Column(name = "last_event_type", length = 10)
    private HandlingEventType lastEventType;

    @Basic
    @Column(name = "last_event_location", length = 5)
    private UnLocode lastEventLocation;

    @Basic
    @Column(name = "last_event_voyage", length = 20)
    private VoyageNumber lastEventVoyage;

    @Column(name = "last_event_time")
    private LocalDateTime lastEventTime;

    @Enumerated(EnumType.STRING)
    @Column(name = "next_activity_type", length = 10)
    private HandlingEventType nextActivityType;

    @Basic
    @Column(name = "next_activity_location", length = 5)
    private UnLocode nextActivityLocation;

    @Basic
    @Column(name = "next_activity_voyage", length = 20)
    private VoyageNumber nextActivityVoyage;

    @Column(name = "calculated_at", nullable = false)
    private LocalDateTime calculatedAt;

    protected Delivery() {
        // for JPA
    }

    /** The delivery after a handling history: its most recently completed event is what counts. */
    public static Delivery derivedFrom(RouteSpecification spec, Itinerary itinerary, HandlingHistory history,
                                       LocalDateTime now) {
        Optional<HandlingEvent> last = history.mostRecentlyCompleted();
        return derive(spec, itinerary, last.map(HandlingEvent::activity).orElse(null),
                last.map(HandlingEvent::completionTime).orElse(null), now);
    }

    /** The delivery after a change of plan: the same last event, judged against the new plan. */
    public Delivery updatedOnRouting(RouteSpecification spec, Itinerary itinerary, LocalDateTime now) {
        return derive(spec, itinerary, lastEvent().orElse(null), lastEventTime, now);
    }

    private static Delivery derive(RouteSpecification spec, Itinerary itinerary, HandlingActivity last,
                                   LocalDateTime lastTime, LocalDateTime now) {
        Delivery d = new Delivery();
        d.calculatedAt = now;
        d.routingStatus = itinerary.isEmpty() ? RoutingStatus.NOT_ROUTED
                : spec.isSatisfiedBy(itinerary) ? RoutingStatus.ROUTED : RoutingStatus.MISROUTED;
        d.transportStatus = last == null ? TransportStatus.NOT_RECEIVED : switch (last.type()) {
            case LOAD -> TransportStatus.ONBOARD_CARRIER;
            case UNLOAD, RECEIVE, CUSTOMS -> TransportStatus.IN_PORT;
            case CLAIM -> TransportStatus.CLAIMED;
        };
        d.misdirected = last != null && !itinerary.isExpected(last);
        d.unloadedAtDestination = last != null && last.type() == HandlingEventType.UNLOAD
                && last.location().equals(spec.destination());
        boolean onTrack = d.routingStatus == RoutingStatus.ROUTED && !d.misdirected;
        d.eta = onTrack ? itinerary.finalArrivalTime() : null;
        if (last != null) {
            d.lastEventType = last.type();
            d.lastEventLocation = last.location();
            d.lastEventVoyage = last.voyage();
            d.lastEventTime = lastTime;
        }
        Optional<HandlingActivity> next = !onTrack ? Optional.empty()
                : last == null ? itinerary.firstActivity() : itinerary.activityAfter(last);
        next.ifPresent(activity -> {
            d.nextActivityType = activity.type();
            d.nextActivityLocation = activity.location();
            d.nextActivityVoyage = activity.voyage();
        });
        return d;
    }

    public TransportStatus transportStatus() {
        return transportStatus;
    }

    public RoutingStatus routingStatus() {
        return routingStatus;
    }

    /** Handled somewhere the itinerary did not plan for: it needs a new route. */
    public boolean isMisdirected() {
        return misdirected;
    }

    public boolean isUnloadedAtDestination() {
        return unloadedAtDestination;
    }

    /** Routed and not misdirected: the itinerary can still be trusted for ETA and next steps. */
    public boolean isOnTrack() {
        return routingStatus == RoutingStatus.ROUTED && !misdirected;
    }

    /** Estimated arrival: the itinerary's final arrival while the cargo is on track. */
    public Optional<LocalDateTime> eta() {
        return Optional.ofNullable(eta);
    }

    public Optional<HandlingActivity> lastEvent() {
        return lastEventType == null ? Optional.empty()
                : Optional.of(new HandlingActivity(lastEventType, lastEventLocation, lastEventVoyage));
    }

    public Optional<LocalDateTime> lastEventTime() {
        return Optional.ofNullable(lastEventTime);
    }

    public Optional<UnLocode> lastKnownLocation() {
        return Optional.ofNullable(lastEventLocation);
    }

    /** The voyage the cargo is on right now, while it is on board. */
    public Optional<VoyageNumber> currentVoyage() {
        return transportStatus == TransportStatus.ONBOARD_CARRIER ? lastEvent().map(HandlingActivity::voyage) : Optional.empty();
    }

    public Optional<HandlingActivity> nextExpectedActivity() {
        return nextActivityType == null ? Optional.empty()
                : Optional.of(new HandlingActivity(nextActivityType, nextActivityLocation, nextActivityVoyage));
    }

    public LocalDateTime calculatedAt() {
        return calculatedAt;
    }

    @Override
    public String toString() {
        return transportStatus + "/" + routingStatus + (misdirected ? "/MISDIRECTED" : "")
                + " last=" + lastEvent().orElse(null) + " next=" + nextExpectedActivity().orElse(null);
    }
}
