package dev.loomlab.cargotracker.interfaces.imports;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.application.handling.HandlingReport;
import dev.loomlab.cargotracker.domain.handling.HandlingEventType;
import dev.loomlab.cargotracker.domain.shared.DomainException;
import org.junit.jupiter.api.Test;

class HandlingCsvFormatTest {

    @Test
    void theHeaderMustNameTheColumnsInOrder() {
        assertDoesNotThrow(() -> HandlingCsvFormat.requireHeader("completionTime, trackingId,eventType,unLocode,voyageNumber "));
        assertDoesNotThrow(() -> HandlingCsvFormat.requireHeader("\uFEFFcompletionTime,trackingId,eventType,unLocode,voyageNumber"),
                "a byte order mark from a spreadsheet export is fine");
        DomainException swapped = assertThrows(DomainException.class,
                () -> HandlingCsvFormat.requireHeader("trackingId,completionTime,eventType,unLocode,voyageNumber"));
        assertEquals("file", swapped.field());
        assertTrue(swapped.getMessage().contains("must be the header"), swapped.getMessage());
        assertThrows(DomainException.class, () -> HandlingCsvFormat.requireHeader(null));
    }

    @Test
    void aLineIsOneReportAndTheVoyageColumnMayBeEmptyOrLeftOut() {
        HandlingReport load = HandlingCsvFormat.parseLine("2030-03-01T14:30,LOOM0004,LOAD,NLRTM,TAW-300227");
        assertEquals(HandlingEventType.LOAD, load.activity().type());
        assertNull(HandlingCsvFormat.parseLine("2030-03-01T14:30,LOOM0004,RECEIVE,NLRTM,").activity().voyage());
        assertNull(HandlingCsvFormat.parseLine("2030-03-01T14:30,LOOM0004,RECEIVE,NLRTM").activity().voyage());
    }

    @Test
    void aLineWithTheWrongNumberOfFieldsSaysHowManyWereFound() {
        DomainException e = assertThrows(DomainException.class, () -> HandlingCsvFormat.parseLine("2030-03-01T14:30,LOOM0004"));
        assertTrue(e.getMessage().contains("found 2"), e.getMessage());
        assertThrows(DomainException.class, () -> HandlingCsvFormat.parseLine("a,b,c,d,e,f"));
    }

    @Test
    void anImportHasAtLeastOneAndAtMostTheCapOfEventLines() {
        String header = HandlingCsvFormat.HEADER;
        assertEquals(2, HandlingCsvFormat.requireEventLines(new String[]{header, "a", "", "  ", "b"}, 2), "blank lines do not count");
        DomainException tooMany = assertThrows(DomainException.class,
                () -> HandlingCsvFormat.requireEventLines(new String[]{header, "a", "b", "c"}, 2));
        assertEquals("file", tooMany.field());
        assertTrue(tooMany.getMessage().contains("at most 2 per import"), tooMany.getMessage());
        DomainException none = assertThrows(DomainException.class,
                () -> HandlingCsvFormat.requireEventLines(new String[]{header, "", " "}, 2));
        assertTrue(none.getMessage().contains("no event lines"), none.getMessage());
    }
}
