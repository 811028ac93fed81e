/**
 * The record of handling imports (each uploaded file and each line's outcome) and the two things an
 * import needs from outside, as interfaces: {@code ImportLog} (stored by the persistence
 * infrastructure) and {@code ImportFiles} (where an upload waits for its job). The file format and
 * the batch job are an input adapter in the interfaces layer. Application layer rules apply.
 */
package dev.loomlab.cargotracker.application.imports;
