package dev.loomlab.cargotracker.interfaces.imports;

import dev.loomlab.cargotracker.application.imports.ImportFiles;
import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.listener.AbstractJobListener;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/** Deletes the uploaded file when its import job ends, however it ended: uploads never pile up. */
@Named
@Dependent
public class ImportedFileCleanup extends AbstractJobListener {

    @Inject
    @BatchProperty(name = "file")
    String file;
    @Inject
    ImportFiles files;

    @Override
    public void afterJob() {
        files.delete(file);
    }
}
