package dev.loomlab.cargotracker.infrastructure.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import dev.loomlab.cargotracker.domain.location.UnLocode;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import org.junit.jupiter.api.Test;

/** The columns keep the text they always held; a value read back is the value written. */
class ValueObjectConvertersTest {

    @Test
    void aUnLocodeIsStoredAsItsCode() {
        UnLocodeConverter converter = new UnLocodeConverter();
        assertEquals("NLRTM", converter.convertToDatabaseColumn(new UnLocode("NLRTM")));
        assertEquals(new UnLocode("NLRTM"), converter.convertToEntityAttribute("NLRTM"));
        assertNull(converter.convertToDatabaseColumn(null), "no last event: an empty column");
        assertNull(converter.convertToEntityAttribute(null));
    }

    @Test
    void aVoyageNumberIsStoredAsItsText() {
        VoyageNumberConverter converter = new VoyageNumberConverter();
        assertEquals("PAC-251124", converter.convertToDatabaseColumn(new VoyageNumber("PAC-251124")));
        assertEquals(new VoyageNumber("PAC-251124"), converter.convertToEntityAttribute("PAC-251124"));
        assertNull(converter.convertToDatabaseColumn(null), "an event on land has no voyage");
        assertNull(converter.convertToEntityAttribute(null));
    }

    @Test
    void aTrackingIdIsStoredAsItsText() {
        TrackingIdConverter converter = new TrackingIdConverter();
        assertEquals("LOOM0004", converter.convertToDatabaseColumn(new TrackingId("LOOM0004")));
        assertEquals(new TrackingId("LOOM0004"), converter.convertToEntityAttribute("LOOM0004"));
        assertNull(converter.convertToEntityAttribute(null));
    }

    @Test
    void aColumnThatHoldsNoValidValueIsRefusedWhenRead() {
        // Read back exactly as stored: the forgiving parse of user input (blanks, lower case) is not applied.
        assertThrows(DomainException.class, () -> new UnLocodeConverter().convertToEntityAttribute("nlrtm"));
        assertThrows(DomainException.class, () -> new VoyageNumberConverter().convertToEntityAttribute(" PAC-1"));
        assertThrows(DomainException.class, () -> new TrackingIdConverter().convertToEntityAttribute("L!"));
    }
}
