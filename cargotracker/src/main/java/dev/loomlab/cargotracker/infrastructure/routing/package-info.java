/** The domain's routing service: an earliest-arrival search on the voyage network. Infrastructure layer rules apply. */
package dev.loomlab.cargotracker.infrastructure.routing;
