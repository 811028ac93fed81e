package dev.loomlab.cargotracker.application.handling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HandlingReportParserTest {

    @Test
    void parsesWhatPeopleTypeIntoDomainValues() {
        HandlingReport report = HandlingReportParser.parse("2030-03-01T14:30", " loom0004 ", "load", "nlrtm ", "tpe-300301");
        assertEquals(LocalDateTime.of(2030, 3, 1, 14, 30), report.completionTime());
        assertEquals(new TrackingId("LOOM0004"), report.trackingId());
        assertEquals(HandlingEventType.LOAD, report.activity().type());
        assertEquals(new UnLocode("NLRTM"), report.activity().location());
        assertEquals(new VoyageNumber("TPE-300301"), report.activity().voyage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2030-03-01T14:30", "2030-03-01 14:30", "2030-03-01T14:30:15", "2030-03-01T14:30:15.250"})
    void acceptsIsoTimesWithOrWithoutSeconds(String text) {
        assertEquals(LocalDateTime.of(2030, 3, 1, 14, 30), HandlingReportParser.parseTime(text).withSecond(0).withNano(0));
    }

    @Test
    void aBlankVoyageIsNoVoyage() {
        assertNull(HandlingReportParser.parse("2030-03-01T14:30", "LOOM0004", "RECEIVE", "NLRTM", "  ").activity().voyage());
    }

    @Test
    void namesTheFirstBadField() {
        assertEquals("completionTime", field(() -> HandlingReportParser.parse("01/03/2030", "LOOM0004", "LOAD", "NLRTM", "V1")));
        assertEquals("trackingId", field(() -> HandlingReportParser.parse("2030-03-01T14:30", "L-4", "LOAD", "NLRTM", "V1")));
        assertEquals("eventType", field(() -> HandlingReportParser.parse("2030-03-01T14:30", "LOOM0004", "LOADED", "NLRTM", "V1")));
        assertEquals("unLocode", field(() -> HandlingReportParser.parse("2030-03-01T14:30", "LOOM0004", "LOAD", "Rotterdam", "V1")));
        assertEquals("voyageNumber", field(() -> HandlingReportParser.parse("2030-03-01T14:30", "LOOM0004", "LOAD", "NLRTM", null)));
        assertEquals("voyageNumber", field(() -> HandlingReportParser.parse("2030-03-01T14:30", "LOOM0004", "CLAIM", "NLRTM", "V1")));
    }

    @Test
    void anUnknownTypeListsTheKnownOnes() {
        DomainException e = assertThrows(DomainException.class, () -> HandlingReportParser.parseType("DROP"));
        assertTrue(e.getMessage().contains("RECEIVE, LOAD, UNLOAD, CUSTOMS, CLAIM"), e.getMessage());
    }

    private static String field(Runnable parse) {
        return assertThrows(DomainException.class, parse::run).field();
    }
}
