package dev.loomlab.cargotracker.interfaces.web.login;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LoginPageTest {

    @Test
    void afterTheLoginOnlyAPathOfThisApplicationIsFollowed() {
        String fallback = "/admin/dashboard.xhtml";
        assertEquals("/admin/cargo.xhtml?trackingId=LOOM0004",
                LoginPage.safeNext("/admin/cargo.xhtml?trackingId=LOOM0004", fallback));
        for (String elsewhere : new String[]{null, "", "https://evil.example/", "//evil.example/x", "/\\evil.example",
                "admin/x", "/a\r\nSet-Cookie: x=1"}) {
            assertEquals(fallback, LoginPage.safeNext(elsewhere, fallback), String.valueOf(elsewhere));
        }
    }
}
