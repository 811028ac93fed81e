package dev.loomlab.cargotracker.interfaces.web.login;

import dev.loomlab.cargotracker.interfaces.web.Messages;
import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.security.enterprise.AuthenticationStatus;
import jakarta.security.enterprise.SecurityContext;
import jakarta.security.enterprise.authentication.mechanism.http.AuthenticationParameters;
import jakarta.security.enterprise.credential.UsernamePasswordCredential;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** login.xhtml: the operator's user and password, then the page that asked for them. */
@Named
@RequestScoped
public class LoginPage {

    private static final String AFTER_LOGIN = "/admin/dashboard.xhtml";

    @Inject
    SecurityContext security;

    private String user;
    private String password;
    private String next;

    public void login() throws IOException {
        FacesContext faces = FacesContext.getCurrentInstance();
        ExternalContext external = faces.getExternalContext();
        AuthenticationStatus status = security.authenticate((HttpServletRequest) external.getRequest(),
                (HttpServletResponse) external.getResponse(),
                AuthenticationParameters.withParams().newAuthentication(true)
                        .credential(new UsernamePasswordCredential(user == null ? "" : user, password == null ? "" : password)));
        switch (status) {
            case SUCCESS -> external.redirect(external.getRequestContextPath()
                    + safeNext(next, AFTER_LOGIN));
            case SEND_CONTINUE -> faces.responseComplete();
            default -> Messages.error("Wrong user or password.");
        }
    }

    /** Where to go after the login: a path of this application only, never another site. */
    static String safeNext(String next, String fallback) {
        boolean local = next != null && next.startsWith("/") && !next.startsWith("//") && !next.contains("\\")
                && next.chars().noneMatch(c -> c < 0x20);
        return local ? next : fallback;
    }

    public String getUser() { return user; }
    public void setUser(String user) { this.user = user; }
    public String getPassword() { return password; }
    public void setPassword(String password) { this.password = password; }
    public String getNext() { return next; }
    public void setNext(String next) { this.next = next; }
}
