/**
 * The application layer: the use cases (book and route cargo, register handling, inspect, read
 * views, import files of handling reports) as transactional CDI services. It coordinates domain
 * objects and repositories and decides transaction boundaries; the business rules stay in the
 * domain.
 *
 * <p>May depend on: the domain layer, and the platform's CDI, transactions, concurrency and
 * persistence APIs. Never on the infrastructure or interfaces layers: what it needs from outside
 * (cargo lists, import records, a place for uploaded files) it declares as interfaces that the
 * infrastructure implements. Nothing here knows about HTTP, Faces, batch jobs or JSON.
 */
package dev.loomlab.cargotracker.application;
