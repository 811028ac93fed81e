package dev.loomlab.cargotracker.application.inspection;

import dev.loomlab.cargotracker.application.events.HandlingEventRegistered;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Hands a registered event on to asynchronous inspection, but only after its transaction
 * committed: an inspection that started earlier could read a history without the event.
 */
@ApplicationScoped
public class InspectionTrigger {

    private static final Logger LOG = Logger.getLogger(InspectionTrigger.class.getName());

    /** The container's executor: its threads carry the application's naming and CDI context. */
    @Resource
    ManagedExecutorService executor;

    @Inject
    Event<InspectionRequested> inspections;

    void afterCommit(@Observes(during = TransactionPhase.AFTER_SUCCESS) HandlingEventRegistered registered) {
        inspections.fireAsync(new InspectionRequested(registered.trackingId(), registered.eventId()),
                        NotificationOptions.ofExecutor(executor))
                // A refused hand-over would otherwise vanish: the event is stored but its cargo never inspected.
                .whenComplete((request, failure) -> {
                    if (failure != null) {
                        LOG.log(Level.SEVERE, "Inspection of cargo " + registered.trackingId() + " after event "
                                + registered.eventId() + " did not run", failure);
                    }
                });
    }
}
