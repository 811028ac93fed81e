package dev.loomlab.cargotracker.infrastructure.sampledata;

import dev.loomlab.cargotracker.application.queries.LocationCatalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/** Seeds the sample data when the application starts; a start with data in place adds nothing. */
@ApplicationScoped
public class SampleDataLoader {

    private static final Logger LOG = Logger.getLogger(SampleDataLoader.class.getName());

    @Inject
    SampleDataSeeder seeder;
    @Inject
    LocationCatalog catalog;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        SampleDataSeeder.Result added = seeder.seed();
        catalog.refresh();
        LOG.info(() -> "CargoTracker sample data: added " + added.locations() + " locations, " + added.voyages()
                + " voyages, " + added.cargos() + " cargos (existing data kept).");
    }
}
