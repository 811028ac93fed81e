/**
 * Handling events: facts reported from the field, never changed once stored, and the history of a
 * cargo they make up. Same dependency rule as the whole domain layer.
 */
package dev.loomlab.cargotracker.domain.handling;
