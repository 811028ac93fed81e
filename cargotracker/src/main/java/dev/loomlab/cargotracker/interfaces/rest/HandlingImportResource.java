package dev.loomlab.cargotracker.interfaces.rest;

import dev.loomlab.cargotracker.domain.shared.DomainException;
import dev.loomlab.cargotracker.interfaces.imports.HandlingImports;
import dev.loomlab.cargotracker.interfaces.imports.ImportReport;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

/**
 * CSV uploads of handling events: {@code POST} the file (text/csv, at most
 * {@value HandlingImports#MAX_LINES} event lines) to start a Jakarta Batch import, then {@code GET}
 * its report for the status and the rejected lines with their reasons, a page at a time
 * ({@code ?offset=0&limit=100}).
 */
@Path("handling/imports")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class HandlingImportResource {

    /** The answer to an upload: the import's id and where its report is. */
    @JsonbPropertyOrder({"importId", "report"})
    public record Started(String importId, String report) {
    }

    @Inject
    HandlingImports imports;

    @POST
    @Consumes({"text/csv", MediaType.TEXT_PLAIN, MediaType.APPLICATION_OCTET_STREAM})
    public Response upload(InputStream body, @Context UriInfo uri) throws IOException {
        // One byte more than allowed is enough to tell the file is too big.
        byte[] content = body.readNBytes(HandlingImports.MAX_BYTES + 1);
        String importId = imports.start(content);
        URI report = uri.getAbsolutePathBuilder().path(importId).build();
        return Response.accepted(new Started(importId, report.toString())).location(report).build();
    }

    @GET
    @Path("{importId}")
    public ImportReport report(@PathParam("importId") String importId, @QueryParam("offset") String offset,
                               @QueryParam("limit") String limit) {
        return imports.report(importId, whole("offset", offset, 0), whole("limit", limit, HandlingImports.DEFAULT_PAGE));
    }

    /** A query parameter that must be a whole number; a 400 naming it otherwise (not JAX-RS's 404). */
    private static int whole(String name, String value, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new DomainException(name, name + " must be a whole number, was '" + value + "'.");
        }
    }
}
