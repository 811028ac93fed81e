package dev.loomlab.cargotracker.interfaces.imports;

import jakarta.batch.api.BatchProperty;
import jakarta.batch.api.chunk.AbstractItemReader;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.BufferedReader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the uploaded file line by line after its header; the checkpoint is the last line read. */
@Named
@Dependent
public class HandlingCsvReader extends AbstractItemReader {

    @Inject
    @BatchProperty(name = "file")
    String file;

    private BufferedReader reader;
    private int lineNumber;

    @Override
    public void open(Serializable checkpoint) throws Exception {
        reader = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8);
        reader.readLine(); // the header, checked before the job started
        lineNumber = 1;
        int resumeAfter = checkpoint == null ? 1 : (Integer) checkpoint;
        while (lineNumber < resumeAfter && reader.readLine() != null) {
            lineNumber++;
        }
    }

    /** The next non-blank line, or null at the end of the file. */
    @Override
    public Object readItem() throws Exception {
        String text;
        while ((text = reader.readLine()) != null) {
            lineNumber++;
            if (!text.isBlank()) {
                return new CsvLine(lineNumber, text.strip());
            }
        }
        return null;
    }

    @Override
    public Serializable checkpointInfo() {
        return lineNumber;
    }

    @Override
    public void close() throws Exception {
        if (reader != null) {
            reader.close();
        }
    }
}
