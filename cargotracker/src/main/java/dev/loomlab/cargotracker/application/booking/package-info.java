/** Booking and routing cargo, and changing what the customer asked for. Application layer rules apply. */
package dev.loomlab.cargotracker.application.booking;
