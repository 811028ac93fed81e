package dev.loomlab.cargotracker.interfaces.web.booking;

import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.faces.lifecycle.ClientWindow;
import jakarta.faces.lifecycle.ClientWindowFactory;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Set;

/**
 * Leaves the read-only pages without a client window, so that they open no HTTP session.
 *
 * <p>Why: Faces Flows (the booking wizard) need client windows, so Mojarra switches them on for
 * every request, and Mojarra numbers windows in the HTTP session. Every GET of the tracking page or
 * the dashboard would leave a session behind: under a load test, hundreds of thousands of them.
 * These pages are also stateless views (see the templates), use no flow and post no form, so they
 * lose nothing. All other pages keep the default.
 */
public class FlowOnlyClientWindowFactory extends ClientWindowFactory {

    static final Set<String> READ_ONLY_VIEWS = Set.of("/", "/index.xhtml", "/track.xhtml", "/admin/track.xhtml",
            "/admin/dashboard.xhtml", "/admin/cargo.xhtml");

    /** Mojarra's request parameter for the client window id. */
    static final String WINDOW_ID_PARAMETER = "jfwid";

    public FlowOnlyClientWindowFactory(ClientWindowFactory wrapped) {
        super(wrapped);
    }

    @Override
    public ClientWindow getClientWindow(FacesContext context) {
        return isReadOnlyView(context.getExternalContext()) ? null : getWrapped().getClientWindow(context);
    }

    /**
     * A plain GET of a read-only page. A request that already carries a window id (a redirect after
     * a form post) keeps its window: Mojarra's flow handling expects one then.
     */
    static boolean isReadOnlyView(ExternalContext external) {
        return external.getRequest() instanceof HttpServletRequest request
                && "GET".equals(request.getMethod())
                && READ_ONLY_VIEWS.contains(request.getServletPath())
                && request.getParameter(WINDOW_ID_PARAMETER) == null;
    }
}
