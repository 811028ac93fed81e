package dev.loomlab.cargotracker.domain.handling;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.UUID;

/**
 * A fact reported from the field: this cargo was received, loaded, unloaded, cleared or claimed at
 * a place and time. Events are never changed; a wrong one is corrected by a later one.
 */
@Entity
@Table(name = "handling_event")
public class HandlingEvent {

    /**
     * Assigned here, not by the database: the same on H2 and PostgreSQL, known before the insert,
     * and no sequence for EclipseLink's create-or-extend-tables to forget.
     */
    @Id
    @Column(name = "id", length = 36)
    private String id;

    @Basic
    @Column(name = "tracking_id", length = 16, nullable = false)
    private TrackingId trackingId;

    @Enumerated(EnumType.STRING)
    @Column(name = "event_type", length = 10, nullable = false)
    private HandlingEventType type;

    @Basic
    @Column(name = "location", length = 5, nullable = false)
    private UnLocode location;

    @Basic
    @Column(name = "voyage_number", length = 20)
    private VoyageNumber voyageNumber;

    @Column(name = "completion_time", nullable = false)
    private LocalDateTime completionTime;

    @Column(name = "registration_time", nullable = false)
    private LocalDateTime registrationTime;

    protected HandlingEvent() {
        // for JPA
    }

    public HandlingEvent(TrackingId cargo, HandlingActivity activity, LocalDateTime completionTime,
                         LocalDateTime registrationTime) {
        this.trackingId = Objects.requireNonNull(cargo, "cargo");
        Objects.requireNonNull(activity, "activity");
        this.type = activity.type();
        this.location = activity.location();
        this.voyageNumber = activity.voyage();
        this.completionTime = Objects.requireNonNull(completionTime, "completionTime");
        this.registrationTime = Objects.requireNonNull(registrationTime, "registrationTime");
        this.id = UUID.randomUUID().toString();
    }

    public String id() {
        return id;
    }

    public TrackingId trackingId() {
        return trackingId;
    }

    public HandlingEventType type() {
        return type;
    }

    public UnLocode location() {
        return location;
    }

    public VoyageNumber voyage() {
        return voyageNumber;
    }

    public HandlingActivity activity() {
        return new HandlingActivity(type, location, voyageNumber);
    }

    public LocalDateTime completionTime() {
        return completionTime;
    }

    public LocalDateTime registrationTime() {
        return registrationTime;
    }

    @Override
    public String toString() {
        return trackingId + ": " + activity() + " completed " + completionTime;
    }
}
