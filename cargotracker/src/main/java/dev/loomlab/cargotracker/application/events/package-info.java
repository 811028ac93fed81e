/**
 * CDI events the use cases fire (a cargo changed, a handling event was stored), for observers in any
 * layer that may see the application. Application layer rules apply.
 */
package dev.loomlab.cargotracker.application.events;
