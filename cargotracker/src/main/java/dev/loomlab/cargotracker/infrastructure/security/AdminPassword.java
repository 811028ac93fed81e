package dev.loomlab.cargotracker.infrastructure.security;

import dev.loomlab.cargotracker.infrastructure.config.DataFolder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one operator account: user {@value #USER}, password in a file: system property
 * {@code cargotracker.admin.password.file}, else environment variable
 * {@code CARGOTRACKER_ADMIN_PASSWORD_FILE}, else {@code admin-password} in the data folder. The first
 * line counts. A missing file is created with a random password (readable by the owner only), so a
 * fresh server is never open with a default password; {@code ./lab run} prints where it is.
 */
@ApplicationScoped
public class AdminPassword {

    public static final String USER = "admin";
    public static final String PROPERTY = "cargotracker.admin.password.file";
    public static final String ENVIRONMENT = "CARGOTRACKER_ADMIN_PASSWORD_FILE";
    static final int MIN_LENGTH = 12;

    private static final Logger LOG = Logger.getLogger(AdminPassword.class.getName());

    private volatile byte[] password;

    public static Path file() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT);
        }
        return configured == null || configured.isBlank() ? DataFolder.path().resolve("admin-password")
                : Path.of(configured).toAbsolutePath();
    }

    /** At deployment: the file exists from the start, so whoever runs the server can read it at once. */
    void createAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
        Path file = file();
        try {
            createIfMissing(file);
        } catch (IOException e) {
            LOG.log(Level.SEVERE, "CargoTracker: cannot create the admin password file " + file + "; nobody can log in", e);
        }
    }

    /** Whether user and password are the operator's; compares in constant time. */
    public boolean matches(String user, String given) {
        byte[] expected = password();
        return USER.equals(user) && given != null
                && MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.UTF_8));
    }

    private byte[] password() {
        byte[] known = password;
        if (known == null) {
            synchronized (this) {
                if (password == null) {
                    password = read(file());
                }
                known = password;
            }
        }
        return known;
    }

    static byte[] read(Path file) {
        try {
            createIfMissing(file);
            String first = Files.readAllLines(file, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
            if (first.length() < MIN_LENGTH) {
                throw new IllegalStateException("the admin password in " + file + " has fewer than " + MIN_LENGTH
                        + " characters; nobody can log in until it has more");
            }
            return first.getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the admin password file " + file, e);
        }
    }

    private static void createIfMissing(Path file) throws IOException {
        if (Files.exists(file)) {
            return;
        }
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String generated = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, generated + "\n", StandardCharsets.UTF_8);
            LOG.info(() -> "CargoTracker: generated the admin password (user " + USER + ") in " + file);
        } catch (FileAlreadyExistsException e) {
            // another thread or process wrote it first: use theirs
        }
    }
}
