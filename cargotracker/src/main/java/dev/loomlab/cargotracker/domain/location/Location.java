package dev.loomlab.cargotracker.domain.location;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PostLoad;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.util.Objects;

/**
 * A port or inland terminal. Other aggregates refer to it by its {@link UnLocode} only, so a
 * location is looked up when its name is to be shown and never loaded just to compare places.
 */
@Entity
@Table(name = "location")
public class Location {

    /** Text, as JPA converts no key; parsed once when the location is loaded. */
    @Id
    @Column(name = "un_locode", length = 5)
    private String unLocode;

    @Transient
    private UnLocode parsedUnLocode;

    @Column(nullable = false, length = 80)
    private String name;

    protected Location() {
        // for JPA
    }

    public Location(UnLocode unLocode, String name) {
        this.parsedUnLocode = Objects.requireNonNull(unLocode, "unLocode");
        this.unLocode = unLocode.code();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a location needs a name");
        }
        this.name = name.strip();
    }

    @PostLoad
    void parseKey() {
        parsedUnLocode = new UnLocode(unLocode);
    }

    public UnLocode unLocode() {
        return parsedUnLocode;
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
