package dev.loomlab.cargotracker.interfaces.web;

import dev.loomlab.cargotracker.application.queries.LocationCatalog;
import dev.loomlab.cargotracker.domain.location.Location;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.faces.model.SelectItem;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.util.List;

/** The known locations as pick-list entries: value NLRTM, label "Rotterdam (NLRTM)". */
@Named
@ApplicationScoped
public class LocationOptions {

    @Inject
    LocationCatalog catalog;

    public List<SelectItem> getOptions() {
        return catalog.all().stream()
                .map(l -> new SelectItem(l.unLocode().code(), label(l)))
                .toList();
    }

    private static String label(Location location) {
        return location.name() + " (" + location.unLocode() + ")";
    }
}
