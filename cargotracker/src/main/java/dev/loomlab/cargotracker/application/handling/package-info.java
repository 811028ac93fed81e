/**
 * Registering handling reports: one parser and one service for every door a report comes through
 * (event logger page, REST, CSV import). Application layer rules apply.
 */
package dev.loomlab.cargotracker.application.handling;
