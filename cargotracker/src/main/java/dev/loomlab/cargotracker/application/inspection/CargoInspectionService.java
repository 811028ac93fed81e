package dev.loomlab.cargotracker.application.inspection;

import dev.loomlab.cargotracker.application.Clocks;
import dev.loomlab.cargotracker.application.events.CargoUpdated;
import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.Delivery;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.logging.Logger;

/**
 * Works out a cargo's delivery again from its full handling history, and raises the two alarms
 * that matter to the shipping desk: misdirected (needs a new route) and arrived (tell the customer).
 */
@ApplicationScoped
public class CargoInspectionService {

    private static final Logger LOG = Logger.getLogger(CargoInspectionService.class.getName());

    @Inject
    CargoRepository cargos;
    @Inject
    HandlingEventRepository events;
    @Inject
    Clock clock;
    @Inject
    Event<CargoUpdated> updates;

    @Transactional
    public Delivery inspect(TrackingId trackingId) {
        Cargo cargo = cargos.require(trackingId);
        LocalDateTime now = Clocks.now(clock);
        cargo.deriveDeliveryProgress(events.historyOf(trackingId), now);
        Delivery delivery = cargo.delivery();
        if (delivery.isMisdirected()) {
            LOG.warning(() -> "Cargo " + trackingId + " is misdirected: last event " + delivery.lastEvent().orElse(null)
                    + " is not on its itinerary; it needs a new route.");
        }
        if (delivery.isUnloadedAtDestination()) {
            LOG.info(() -> "Cargo " + trackingId + " has arrived at its destination.");
        }
        updates.fire(CargoUpdated.of(cargo, "inspected", now));
        return delivery;
    }
}
