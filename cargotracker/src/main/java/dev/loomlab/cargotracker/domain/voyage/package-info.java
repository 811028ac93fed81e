/**
 * Voyages and their schedules of carrier movements: the network that routes are found on. Same
 * dependency rule as the whole domain layer.
 */
package dev.loomlab.cargotracker.domain.voyage;
