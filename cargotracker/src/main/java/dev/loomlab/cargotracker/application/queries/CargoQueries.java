package dev.loomlab.cargotracker.application.queries;

import dev.loomlab.cargotracker.domain.cargo.Cargo;
import dev.loomlab.cargotracker.domain.cargo.CargoRepository;
import dev.loomlab.cargotracker.domain.cargo.RoutingStatus;
import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.cargo.TransportStatus;
import dev.loomlab.cargotracker.domain.handling.HandlingEventRepository;
import dev.loomlab.cargotracker.domain.handling.HandlingHistory;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;
import java.util.Optional;

/**
 * Read-only views for pages and the REST API: never writes, yet every method runs in a transaction
 * (REQUIRED: the caller's if it has one, else its own). A refusal such as an unknown cargo does not
 * mark the caller's transaction for rollback.
 */
@ApplicationScoped
// A transaction even for reads: Payara's non-transactional EntityManager can fail (NPE in EclipseLink) when
// used after a JTA transaction in the same request; a read-only transaction is cheap and always works.
@Transactional(dontRollbackOn = DomainException.class)
public class CargoQueries {

    @Inject
    CargoRepository cargos;
    @Inject
    HandlingEventRepository events;
    @Inject
    CargoSummaries summaries;

    public Cargo require(TrackingId trackingId) {
        return cargos.require(trackingId);
    }

    /** The cargo and its history, read in one transaction: what a tracking page shows. */
    public Optional<Tracked> track(TrackingId trackingId) {
        return cargos.find(trackingId).map(cargo -> new Tracked(cargo, events.historyOf(trackingId)));
    }

    public record Tracked(Cargo cargo, HandlingHistory history) {
    }

    public HandlingHistory history(TrackingId trackingId) {
        return events.historyOf(trackingId);
    }

    public List<CargoSummary> all() {
        return summaries.all();
    }

    /** The admin dashboard's three lists. */
    public Dashboard dashboard() {
        List<CargoSummary> all = summaries.all();
        return new Dashboard(
                all.stream().filter(c -> c.routingStatus() != RoutingStatus.ROUTED
                        && c.transportStatus() != TransportStatus.CLAIMED).toList(),
                all.stream().filter(c -> c.routingStatus() == RoutingStatus.ROUTED
                        && c.transportStatus() != TransportStatus.CLAIMED).toList(),
                all.stream().filter(c -> c.transportStatus() == TransportStatus.CLAIMED).toList());
    }

    /**
     * @param needRouting not routed, or misrouted after a change of plan
     * @param routed      on their way (or waiting to be received) on a valid route
     * @param claimed     delivered and picked up
     */
    public record Dashboard(List<CargoSummary> needRouting, List<CargoSummary> routed, List<CargoSummary> claimed) {
    }
}
