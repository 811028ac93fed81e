/**
 * The domain layer: the shipping model in the words of the business (cargo, itinerary, route
 * specification, handling, voyages) and the rules that keep it consistent. It knows nothing of how
 * it is reached or stored.
 *
 * <p>May depend on: Java SE, and the Jakarta Persistence annotations that describe how its entities
 * map to tables (how values become columns is the infrastructure's, through converters the domain
 * does not name). Never on the application, infrastructure or interfaces layers, nor on CDI,
 * transactions, REST, Faces or JSON. Repositories and the routing service are interfaces here,
 * implemented outside.
 */
package dev.loomlab.cargotracker.domain;
