package dev.loomlab.cargotracker.application.imports;

/** Where an uploaded file waits for its import job; the infrastructure decides the place. */
public interface ImportFiles {

    /** Keeps the file of import {@code importId}; returns its location, which the job is given to read. */
    String keep(String importId, byte[] content);

    /** Deletes a kept file once its job has ended: the stored lines are the record. */
    void delete(String location);
}
