/**
 * The CSV import as an input adapter: the file format, the upload check, and the Jakarta Batch job
 * (reader, checker, writer) that hands every line to the application's handling service, as any
 * other door does. The REST upload in {@code rest} starts it. Interfaces layer rules apply.
 */
package dev.loomlab.cargotracker.interfaces.imports;
