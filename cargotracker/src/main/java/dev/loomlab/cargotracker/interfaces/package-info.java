/**
 * The interfaces layer: the doors into the application (Faces pages, the REST API and its update
 * stream, the CSV import job). Each turns what comes in into calls of application services and what
 * comes back into pages, JSON or events; none holds business rules.
 *
 * <p>May depend on: the application and domain layers and the platform's web, REST, batch and JSON
 * APIs. Never on the infrastructure layer: what it needs is reached through the application.
 */
package dev.loomlab.cargotracker.interfaces;
