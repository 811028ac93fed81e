/**
 * The read side: views of cargo for pages and the API, and the location names they show. Never
 * writes. Application layer rules apply; {@code CargoSummaries} is implemented by the persistence
 * infrastructure.
 */
package dev.loomlab.cargotracker.application.queries;
