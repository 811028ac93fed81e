package dev.loomlab.cargotracker.infrastructure.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.authentication.mechanism.http.HttpAuthenticationMechanism;
import jakarta.security.enterprise.authentication.mechanism.http.HttpMessageContext;
import jakarta.security.enterprise.credential.Credential;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.security.enterprise.identitystore.CredentialValidationResult;
import jakarta.security.enterprise.identitystore.IdentityStoreHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * Who may use the protected parts (web.xml: the booking desk, booking, the event logger, and every
 * write of the API). Two ways in, one account ({@link AdminPassword}):
 * <ul>
 * <li>HTTP Basic on any request, for API clients and load tools; a protected API request without it
 *     gets 401 with a Basic challenge;</li>
 * <li>the login page for browsers: a protected page redirects there, the login is kept in the HTTP
 *     session (a new session id at login), and the page asked for comes next.</li>
 * </ul>
 * Public pages and GETs of the API pass untouched, without a session.
 */
@ApplicationScoped
public class CargoTrackerAuthentication implements HttpAuthenticationMechanism {

    static final String SESSION_CALLER = "cargotracker.caller";
    static final String LOGIN_PAGE = "/login.xhtml";
    private static final String BASIC = "Basic ";

    @Inject
    IdentityStoreHandler identityStores;

    @Override
    public AuthenticationStatus validateRequest(HttpServletRequest request, HttpServletResponse response,
                                                HttpMessageContext context) {
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            CredentialValidationResult result = validate(basicCredential(authorization.substring(BASIC.length())));
            return result.getStatus() == CredentialValidationResult.Status.VALID
                    ? context.notifyContainerAboutLogin(result) : challenge(response, context);
        }
        if (context.isAuthenticationRequest()) {
            // The login page's SecurityContext.authenticate(...) with the form's user and password.
            CredentialValidationResult result = validate(context.getAuthParameters().getCredential());
            if (result.getStatus() != CredentialValidationResult.Status.VALID) {
                return context.responseUnauthorized();
            }
            request.getSession(true);
            request.changeSessionId(); // a session id seen before the login does not carry it
            request.getSession().setAttribute(SESSION_CALLER, result.getCallerPrincipal().getName());
            return context.notifyContainerAboutLogin(result);
        }
        HttpSession session = request.getSession(false);
        Object caller = session == null ? null : session.getAttribute(SESSION_CALLER);
        if (caller instanceof String name) {
            return context.notifyContainerAboutLogin(name, Set.of(AdminIdentityStore.ROLE));
        }
        if (!context.isProtected()) {
            return context.doNothing();
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/api/")) {
            return challenge(response, context);
        }
        String query = request.getQueryString();
        String next = path + (query == null ? "" : "?" + query);
        return context.redirect(request.getContextPath() + LOGIN_PAGE + "?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
    }

    @Override
    public void cleanSubject(HttpServletRequest request, HttpServletResponse response, HttpMessageContext context) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.removeAttribute(SESSION_CALLER);
        }
        HttpAuthenticationMechanism.super.cleanSubject(request, response, context);
    }

    private CredentialValidationResult validate(Credential credential) {
        return credential == null ? CredentialValidationResult.INVALID_RESULT : identityStores.validate(credential);
    }

    private static AuthenticationStatus challenge(HttpServletResponse response, HttpMessageContext context) {
        response.setHeader("WWW-Authenticate", "Basic realm=\"CargoTracker\", charset=\"UTF-8\"");
        return context.responseUnauthorized();
    }

    /** user:password from a Basic header's Base64, or null when it is not that. */
    static UsernamePasswordCredential basicCredential(String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded.strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        return colon < 0 ? null : new UsernamePasswordCredential(decoded.substring(0, colon), decoded.substring(colon + 1));
    }
}
