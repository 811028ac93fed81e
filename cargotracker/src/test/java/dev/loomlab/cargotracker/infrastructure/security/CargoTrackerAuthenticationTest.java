package dev.loomlab.cargotracker.infrastructure.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CargoTrackerAuthenticationTest {

    private static String basic(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBasicHeaderIsUserColonPasswordAndThePasswordMayHoldColons() {
        var credential = CargoTrackerAuthentication.basicCredential(basic("admin:pa:ss wörd"));
        assertEquals("admin", credential.getCaller());
        assertEquals("pa:ss wörd", credential.getPasswordAsString());
        assertNull(CargoTrackerAuthentication.basicCredential(basic("no-colon")));
        assertNull(CargoTrackerAuthentication.basicCredential("%%% not base64"));
    }
}
