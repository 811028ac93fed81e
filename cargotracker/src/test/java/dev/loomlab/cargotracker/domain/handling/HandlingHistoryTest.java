package dev.loomlab.cargotracker.domain.handling;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class HandlingHistoryTest {

    @Test
    void ordersByCompletionNotByReportingOrder() {
        HandlingEvent received = onLand(HandlingEventType.RECEIVE, SHANGHAI, 0);
        HandlingEvent loaded = event(HandlingEventType.LOAD, SHANGHAI, V1, 1);
        HandlingEvent unloaded = event(HandlingEventType.UNLOAD, HONG_KONG, V1, 3);
        HandlingHistory history = new HandlingHistory(List.of(unloaded, received, loaded));
        assertEquals(List.of(received, loaded, unloaded), history.events());
        assertEquals(unloaded, history.mostRecentlyCompleted().orElseThrow());
    }

    @Test
    void emptyHistoryHasNoLatestEvent() {
        assertTrue(HandlingHistory.EMPTY.mostRecentlyCompleted().isEmpty());
        assertTrue(HandlingHistory.EMPTY.isEmpty());
    }
}
