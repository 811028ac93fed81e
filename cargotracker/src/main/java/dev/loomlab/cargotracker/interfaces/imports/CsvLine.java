package dev.loomlab.cargotracker.interfaces.imports;

import java.io.Serializable;

/** One line of an uploaded file, numbered as an editor numbers it (the header is line 1). */
public record CsvLine(int number, String text) implements Serializable {
}
