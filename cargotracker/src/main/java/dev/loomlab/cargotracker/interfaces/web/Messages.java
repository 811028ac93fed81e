package dev.loomlab.cargotracker.interfaces.web;

import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;

/** Page messages: errors stay on the page, confirmations survive the redirect after a POST. */
public final class Messages {

    private Messages() {
    }

    public static void error(String message) {
        FacesContext.getCurrentInstance().addMessage(null, new FacesMessage(FacesMessage.SEVERITY_ERROR, message, null));
    }

    /** A confirmation shown on the page the action redirects to. */
    public static void confirmAfterRedirect(String message) {
        FacesContext context = FacesContext.getCurrentInstance();
        context.addMessage(null, new FacesMessage(FacesMessage.SEVERITY_INFO, message, null));
        context.getExternalContext().getFlash().setKeepMessages(true);
    }
}
