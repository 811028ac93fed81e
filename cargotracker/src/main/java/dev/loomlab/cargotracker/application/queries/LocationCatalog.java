package dev.loomlab.cargotracker.application.queries;

import dev.loomlab.cargotracker.domain.location.Location;
import dev.loomlab.cargotracker.domain.location.LocationRepository;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Location names for display. Locations are reference data that only the sample loader adds, so
 * they are read once and kept; {@link #refresh()} rereads them after loading. Deliberately not
 * {@code @Transactional}: pages ask for dozens of names each, and a transaction per name cost more
 * than the rest of the page; the repository opens one for the rare reload.
 */
@ApplicationScoped
public class LocationCatalog {

    @Inject
    LocationRepository locations;

    private volatile Snapshot snapshot;

    public List<Location> all() {
        return snapshot().list();
    }

    /** "Rotterdam" for NLRTM; the code itself for a place not in the catalog. */
    public String nameOf(UnLocode code) {
        if (code == null) {
            return "";
        }
        Location location = snapshot().byCode().get(code);
        return location == null ? code.code() : location.name();
    }

    public boolean contains(UnLocode code) {
        return snapshot().byCode().containsKey(code);
    }

    public void refresh() {
        snapshot = null;
    }

    private Snapshot snapshot() {
        Snapshot current = snapshot;
        if (current == null) {
            List<Location> list = List.copyOf(locations.findAll());
            current = new Snapshot(list, list.stream().collect(Collectors.toMap(Location::unLocode, Function.identity())));
            snapshot = current;
        }
        return current;
    }

    private record Snapshot(List<Location> list, Map<UnLocode, Location> byCode) {
    }
}
