package dev.loomlab.cargotracker.domain.cargo;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;
import java.io.Serializable;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * One part of a route: the cargo rides one voyage from where it is loaded to where it is unloaded.
 * Serializable so that proposed routes can wait in a page's view state until one is chosen.
 */
@Embeddable
public class Leg implements Serializable {

    private static final long serialVersionUID = 1L;

    @Basic
    @Column(name = "voyage_number", length = 20, nullable = false)
    private VoyageNumber voyageNumber;

    @Basic
    @Column(name = "load_location", length = 5, nullable = false)
    private UnLocode loadLocation;

    @Basic
    @Column(name = "unload_location", length = 5, nullable = false)
    private UnLocode unloadLocation;

    @Column(name = "load_time", nullable = false)
    private LocalDateTime loadTime;

    @Column(name = "unload_time", nullable = false)
    private LocalDateTime unloadTime;

    protected Leg() {
        // for JPA
    }

    public Leg(VoyageNumber voyage, UnLocode load, UnLocode unload, LocalDateTime loadTime, LocalDateTime unloadTime) {
        Objects.requireNonNull(voyage, "voyage");
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(unload, "unload");
        Objects.requireNonNull(loadTime, "loadTime");
        Objects.requireNonNull(unloadTime, "unloadTime");
        if (load.equals(unload)) {
            throw new IllegalArgumentException("a leg is loaded and unloaded at different places, not both at " + load);
        }
        if (!unloadTime.isAfter(loadTime)) {
            throw new IllegalArgumentException("a leg is unloaded after it is loaded: " + loadTime + " -> " + unloadTime);
        }
        this.voyageNumber = voyage;
        this.loadLocation = load;
        this.unloadLocation = unload;
        this.loadTime = loadTime;
        this.unloadTime = unloadTime;
    }

    public VoyageNumber voyage() {
        return voyageNumber;
    }

    public UnLocode loadLocation() {
        return loadLocation;
    }

    public UnLocode unloadLocation() {
        return unloadLocation;
    }

    public LocalDateTime loadTime() {
        return loadTime;
    }

    public LocalDateTime unloadTime() {
        return unloadTime;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Leg leg && voyageNumber.equals(leg.voyageNumber)
                && loadLocation.equals(leg.loadLocation) && unloadLocation.equals(leg.unloadLocation)
                && loadTime.equals(leg.loadTime) && unloadTime.equals(leg.unloadTime);
    }

    @Override
    public int hashCode() {
        return Objects.hash(voyageNumber, loadLocation, unloadLocation, loadTime, unloadTime);
    }

    @Override
    public String toString() {
        return voyageNumber + ": " + loadLocation + " " + loadTime + " -> " + unloadLocation + " " + unloadTime;
    }
}
