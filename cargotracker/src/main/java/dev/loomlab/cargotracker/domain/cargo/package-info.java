/**
 * The cargo aggregate: {@code Cargo} with what the customer asked for, the planned itinerary and
 * the delivery derived from both and the last handling. Other aggregates are referred to by
 * identity only. Same dependency rule as the whole domain layer.
 */
package dev.loomlab.cargotracker.domain.cargo;
