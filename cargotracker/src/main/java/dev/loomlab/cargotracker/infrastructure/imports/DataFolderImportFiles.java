package dev.loomlab.cargotracker.infrastructure.imports;

import dev.loomlab.cargotracker.application.imports.ImportFiles;
import dev.loomlab.cargotracker.infrastructure.config.DataFolder;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Keeps uploaded files in {@code imports/} of the data folder, beside the database. */
@ApplicationScoped
public class DataFolderImportFiles implements ImportFiles {

    @Override
    public String keep(String importId, byte[] content) {
        try {
            Path folder = Files.createDirectories(DataFolder.path().resolve("imports"));
            return Files.write(folder.resolve(importId + ".csv"), content).toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the uploaded file in " + DataFolder.path(), e);
        }
    }

    @Override
    public void delete(String location) {
        try {
            Files.deleteIfExists(Path.of(location));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the imported file " + location, e);
        }
    }
}
