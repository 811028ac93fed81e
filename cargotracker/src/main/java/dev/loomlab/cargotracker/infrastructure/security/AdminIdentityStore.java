package dev.loomlab.cargotracker.infrastructure.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStore;
import java.util.Set;

/** Validates the operator's user and password; the caller gets the role {@value #ROLE}. */
@ApplicationScoped
public class AdminIdentityStore implements IdentityStore {

    public static final String ROLE = "admin";

    @Inject
    AdminPassword password;

    public CredentialValidationResult validate(UsernamePasswordCredential credential) {
        return password.matches(credential.getCaller(), credential.getPasswordAsString())
                ? new CredentialValidationResult(credential.getCaller(), Set.of(ROLE))
                : CredentialValidationResult.INVALID_RESULT;
    }
}
