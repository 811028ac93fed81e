package dev.loomlab.cargotracker.infrastructure.sampledata;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.RoutingService;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import dev.loomlab.cargotracker.domain.location.Location;
import dev.loomlab.cargotracker.domain.location.LocationRepository;
import dev.loomlab.cargotracker.domain.voyage.Voyage;
import dev.loomlab.cargotracker.domain.voyage.VoyageRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Writes the sample data, each part only if it is missing, so that every start may run it: ports
 * once, voyages for the weeks around today (a server restarted a month later still has ships to
 * book on), and the sample cargos once.
 */
@ApplicationScoped
public class SampleDataSeeder {

    @Inject
    LocationRepository locations;
    @Inject
    VoyageRepository voyages;
    @Inject
    CargoRepository cargos;
    @Inject
    HandlingEventRepository events;
    @Inject
    RoutingService routing;
    @Inject
    Clock clock;

    /** What one run added; all zero when the data was already there. */
    public record Result(int locations, int voyages, int cargos) {
    }

    @Transactional
    public Result seed() {
        int newLocations = 0;
        for (Location location : SamplePorts.ALL) {
            if (locations.find(location.unLocode()).isEmpty()) {
                locations.store(location);
                newLocations++;
            }
        }
        LocalDateTime now = Clocks.now(clock);
        int newVoyages = 0;
        for (Voyage voyage : SampleTimetable.voyagesAround(now.toLocalDate())) {
            if (voyages.find(voyage.voyageNumber()).isEmpty()) {
                voyages.store(voyage);
                newVoyages++;
            }
        }
        int newCargos = 0;
        if (cargos.find(SampleCargos.NOT_ROUTED).isEmpty()) {
            List<SampleCargos.Planned> planned = new SampleCargos(now, routing, voyages::find).plan();
            SampleCargos.deriveDeliveries(planned, now);
            for (SampleCargos.Planned p : planned) {
                cargos.store(p.cargo());
                p.events().forEach(events::store);
                newCargos++;
            }
        }
        return new Result(newLocations, newVoyages, newCargos);
    }
}
