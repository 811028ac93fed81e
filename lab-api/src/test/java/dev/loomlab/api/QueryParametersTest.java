package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class QueryParametersTest {

    @Test
    void decodesAndKeepsTheFirstValueAsJaxRsDoes() {
        QueryParameters query = QueryParameters.parse("ms=%2050&ms=7&depth=3&flag");
        assertEquals(" 50", query.get("ms"));
        assertEquals("3", query.get("depth"));
        assertEquals("", query.get("flag"));
        assertNull(query.get("min"));
    }

    @Test
    void anEmptyValueIsPresentAndRefusedNotDefaulted() {
        QueryParameters query = QueryParameters.parse("ms=");
        var e = assertThrows(BadParameterException.class, () -> SleepRequest.parse(query));
        assertEquals("ms", e.parameter());
        assertEquals("ms is required: an integer in 0..60000", e.getMessage());
    }

    @Test
    void aBrokenEscapeIsReportedAsTyped() {
        var e = assertThrows(BadParameterException.class, () -> SleepRequest.parse(QueryParameters.parse("depth=%zz")));
        assertEquals("depth must be an integer in 0..2000, was \"%zz\"", e.getMessage());
    }
}
