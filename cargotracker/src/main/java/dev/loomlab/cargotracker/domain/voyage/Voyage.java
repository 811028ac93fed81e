package dev.loomlab.cargotracker.domain.voyage;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.PostLoad;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A vessel's (or train's) trip along a schedule, known by its voyage number. */
@Entity
@Table(name = "voyage")
public class Voyage {

    /** Text, as JPA converts no key; parsed once when the voyage is loaded. */
    @Id
    @Column(name = "voyage_number", length = 20)
    private String voyageNumber;

    @Transient
    private VoyageNumber parsedVoyageNumber;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "carrier_movement", joinColumns = @JoinColumn(name = "voyage_number"))
    @OrderColumn(name = "position")
    private List<CarrierMovement> movements = new ArrayList<>();

    protected Voyage() {
        // for JPA
    }

    public Voyage(VoyageNumber number, Schedule schedule) {
        this.parsedVoyageNumber = Objects.requireNonNull(number, "number");
        this.voyageNumber = number.number();
        this.movements = new ArrayList<>(Objects.requireNonNull(schedule, "schedule").movements());
    }

    @PostLoad
    void parseKey() {
        parsedVoyageNumber = new VoyageNumber(voyageNumber);
    }

    public VoyageNumber voyageNumber() {
        return parsedVoyageNumber;
    }

    public Schedule schedule() {
        return new Schedule(movements);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Voyage voyage && voyageNumber.equals(voyage.voyageNumber);
    }

    @Override
    public int hashCode() {
        return voyageNumber.hashCode();
    }

    @Override
    public String toString() {
        return "Voyage " + voyageNumber;
    }
}
