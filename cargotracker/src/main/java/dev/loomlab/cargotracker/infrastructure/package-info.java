/**
 * The infrastructure layer: the technical implementations behind the interfaces the inner layers
 * declare (JPA repositories and converters, the routing search, import storage), plus what the
 * container needs to run the application (configuration, sample data, security).
 *
 * <p>May depend on: the domain and application layers (it implements their interfaces) and any
 * platform API. Never on the interfaces layer: adapters call inward, infrastructure is called through
 * the interfaces it implements.
 */
package dev.loomlab.cargotracker.infrastructure;
