package dev.loomlab.cargotracker.application.inspection;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.persistence.OptimisticLockException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The asynchronous half of handling: inspects the cargo off the request thread. Two events for one
 * cargo may be inspected at once; the loser of the optimistic lock simply inspects again, which is
 * safe because an inspection always starts from the full history.
 */
@ApplicationScoped
public class CargoInspector {

    private static final Logger LOG = Logger.getLogger(CargoInspector.class.getName());
    private static final int ATTEMPTS = 5;

    @Inject
    CargoInspectionService inspection;

    void onRequest(@ObservesAsync InspectionRequested request) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                inspection.inspect(request.trackingId());
                return;
            } catch (RuntimeException e) {
                if (!causedByConcurrentUpdate(e) || attempt == ATTEMPTS) {
                    LOG.log(Level.SEVERE, "Inspection of cargo " + request.trackingId() + " failed", e);
                    return;
                }
            }
        }
    }

    private static boolean causedByConcurrentUpdate(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof OptimisticLockException
                    || cause.getClass().getName().endsWith("OptimisticLockException")) {
                return true;
            }
        }
        return false;
    }
}
