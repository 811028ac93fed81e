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

    @Test
    void afterTheLoginOnlyAPathOfThisApplicationIsFollowed() {
        String fallback = "/admin/dashboard.xhtml";
        assertEquals("/admin/cargo.xhtml?trackingId=LOOM0004",
                CargoTrackerAuthentication.safeNext("/admin/cargo.xhtml?trackingId=LOOM0004", fallback));
        for (String elsewhere : new String[]{null, "", "https://evil.example/", "//evil.example/x", "/\\evil.example",
                "admin/x", "/a\r\nSet-Cookie: x=1"}) {
            assertEquals(fallback, CargoTrackerAuthentication.safeNext(elsewhere, fallback), String.valueOf(elsewhere));
        }
    }
}
