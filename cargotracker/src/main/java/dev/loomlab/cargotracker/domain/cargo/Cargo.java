package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.persistence.Basic;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.PostLoad;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import jakarta.persistence.Version;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The aggregate root: a cargo booked by a customer. It holds what was asked for (route
 * specification), the plan (itinerary) and where it stands (delivery). Handling events are a
 * separate aggregate that refers to the cargo by tracking id; the cargo only learns about them
 * when its delivery is derived again.
 *
 * <p>Places and voyages are held as value objects (converted to text columns by the persistence
 * layer). The key stays text, as JPA converts no key, and is parsed once when the cargo is loaded.
 */
@Entity
@Table(name = "cargo")
public class Cargo {

    @Id
    @Column(name = "tracking_id", length = 16)
    private String trackingId;

    @Transient
    private TrackingId parsedTrackingId;

    /** Where the customer handed the cargo over; stays when a re-route starts elsewhere. */
    @Basic
    @Column(name = "origin", length = 5, nullable = false)
    private UnLocode origin;

    @Column(name = "booked_at", nullable = false)
    private LocalDateTime bookedAt;

    @Embedded
    private RouteSpecification routeSpecification;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "cargo_leg", joinColumns = @JoinColumn(name = "tracking_id"))
    @OrderColumn(name = "position")
    private List<Leg> legs = new ArrayList<>();

    @Embedded
    private Delivery delivery;

    /** Inspection runs asynchronously; two writers at once must not overwrite each other. */
    @Version
    private long version;

    protected Cargo() {
        // for JPA
    }

    public Cargo(TrackingId trackingId, RouteSpecification routeSpecification, LocalDateTime bookedAt) {
        this.parsedTrackingId = Objects.requireNonNull(trackingId, "trackingId");
        this.trackingId = trackingId.id();
        this.routeSpecification = Objects.requireNonNull(routeSpecification, "routeSpecification");
        this.origin = routeSpecification.origin();
        this.bookedAt = Objects.requireNonNull(bookedAt, "bookedAt");
        this.delivery = Delivery.derivedFrom(routeSpecification, Itinerary.EMPTY, HandlingHistory.EMPTY, bookedAt);
    }

    /** The customer changed what they want (destination, deadline) or the cargo is re-routed from where it is. */
    public void specifyNewRoute(RouteSpecification newSpecification, LocalDateTime now) {
        this.routeSpecification = Objects.requireNonNull(newSpecification, "newSpecification");
        this.delivery = delivery.updatedOnRouting(routeSpecification, itinerary(), now);
    }

    public void assignToRoute(Itinerary itinerary, LocalDateTime now) {
        Objects.requireNonNull(itinerary, "itinerary");
        this.legs = new ArrayList<>(itinerary.legs());
        this.delivery = delivery.updatedOnRouting(routeSpecification, itinerary, now);
    }

    /** Called after handling: the delivery is worked out again from the full history. */
    public void deriveDeliveryProgress(HandlingHistory history, LocalDateTime now) {
        this.delivery = Delivery.derivedFrom(routeSpecification, itinerary(), history, now);
    }

    @PostLoad
    void parseKey() {
        parsedTrackingId = new TrackingId(trackingId);
    }

    public TrackingId trackingId() {
        return parsedTrackingId;
    }

    public UnLocode origin() {
        return origin;
    }

    public LocalDateTime bookedAt() {
        return bookedAt;
    }

    public RouteSpecification routeSpecification() {
        return routeSpecification;
    }

    public Itinerary itinerary() {
        return legs.isEmpty() ? Itinerary.EMPTY : new Itinerary(legs);
    }

    public Delivery delivery() {
        return delivery;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cargo cargo && trackingId.equals(cargo.trackingId);
    }

    @Override
    public int hashCode() {
        return trackingId.hashCode();
    }

    @Override
    public String toString() {
        return "Cargo " + trackingId + " " + routeSpecification + " " + delivery;
    }
}
