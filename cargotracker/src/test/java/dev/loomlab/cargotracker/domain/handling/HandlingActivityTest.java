package dev.loomlab.cargotracker.domain.handling;

import static dev.loomlab.cargotracker.domain.Fixtures.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HandlingActivityTest {

    @ParameterizedTest
    @EnumSource(value = HandlingEventType.class, names = {"LOAD", "UNLOAD"})
    void loadingAndUnloadingNeedAVoyage(HandlingEventType type) {
        DomainException e = assertThrows(DomainException.class, () -> new HandlingActivity(type, ROTTERDAM, null));
        assertEquals("voyageNumber", e.field());
        assertTrue(e.getMessage().contains("needs a voyage"), e.getMessage());
        assertEquals(V1, new HandlingActivity(type, ROTTERDAM, V1).voyage());
    }

    @ParameterizedTest
    @EnumSource(value = HandlingEventType.class, names = {"RECEIVE", "CUSTOMS", "CLAIM"})
    void landActivitiesRefuseAVoyage(HandlingEventType type) {
        DomainException e = assertThrows(DomainException.class, () -> new HandlingActivity(type, ROTTERDAM, V1));
        assertEquals("voyageNumber", e.field());
        assertEquals(ROTTERDAM, new HandlingActivity(type, ROTTERDAM, null).location());
    }

    @ParameterizedTest
    @EnumSource(HandlingEventType.class)
    void typesParseCaseInsensitively(HandlingEventType type) {
        assertEquals(type, HandlingEventType.parseOrNull(" " + type.name().toLowerCase() + " "));
        assertEquals(null, HandlingEventType.parseOrNull("LOADED"));
    }
}
