package dev.loomlab.cargotracker.domain.location;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.Objects;

/**
 * A port or inland terminal. Other aggregates refer to it by its {@link UnLocode} only, so a
 * location is looked up when its name is to be shown and never loaded just to compare places.
 */
@Entity
@Table(name = "location")
public class Location {

    @Id
    @Column(name = "un_locode", length = 5)
    private String unLocode;

    @Column(nullable = false, length = 80)
    private String name;

    protected Location() {
        // for JPA
    }

    public Location(UnLocode unLocode, String name) {
        this.unLocode = Objects.requireNonNull(unLocode, "unLocode").code();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a location needs a name");
        }
        this.name = name.strip();
    }

    public UnLocode unLocode() {
        return new UnLocode(unLocode);
    }

    public String name() {
        return name;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Location location && unLocode.equals(location.unLocode);
    }

    @Override
    public int hashCode() {
        return unLocode.hashCode();
    }

    @Override
    public String toString() {
        return name + " (" + unLocode + ")";
    }
}
