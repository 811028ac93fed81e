package dev.loomlab.cargotracker.domain.location;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class UnLocodeTest {

    @ParameterizedTest
    @ValueSource(strings = {"NLRTM", "USNYC", "SE2GT", "AB999"})
    void acceptsCountryAndPlaceCodes(String code) {
        assertEquals(code, new UnLocode(code).code());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "NLRT", "NLRTMX", "N1RTM", "NLRT1", "NLRT0", "nlrtm", "NL-RT"})
    void refusesAnythingElseWithAMessageNamingTheInput(String code) {
        DomainException e = assertThrows(DomainException.class, () -> new UnLocode(code));
        assertEquals("unLocode", e.field());
        assertTrue(e.getMessage().contains("UN/LOCODE"), e.getMessage());
    }

    @Test
    void parseForgivesCaseAndBlanks() {
        assertEquals(new UnLocode("DEHAM"), UnLocode.parse("  deham "));
        assertTrue(UnLocode.isValid(" sgsin"));
        assertFalse(UnLocode.isValid("SG SIN"));
        assertFalse(UnLocode.isValid(null));
    }
}
