package dev.loomlab.cargotracker.infrastructure.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminPasswordTest {

    @TempDir
    Path folder;

    @Test
    void aMissingFileGetsARandomPasswordOnlyTheOwnerCanRead() throws Exception {
        Path file = folder.resolve("sub/admin-password");
        String first = new String(AdminPassword.read(file), StandardCharsets.UTF_8);
        assertTrue(first.length() >= 20, first);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertArrayEquals(first.getBytes(StandardCharsets.UTF_8), AdminPassword.read(file), "kept, not generated again");
        assertNotEquals(first, new String(AdminPassword.read(folder.resolve("other")), StandardCharsets.UTF_8));
    }

    @Test
    void theFirstLineOfAGivenFileCountsAndAShortOneIsRefused() throws Exception {
        Path given = Files.writeString(folder.resolve("given"), "  a-long-enough-secret \nsecond line\n");
        assertArrayEquals("a-long-enough-secret".getBytes(StandardCharsets.UTF_8), AdminPassword.read(given));
        Path shortOne = Files.writeString(folder.resolve("short"), "admin\n");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> AdminPassword.read(shortOne));
        assertTrue(refused.getMessage().contains("fewer than 12 characters"), refused.getMessage());
    }
}
