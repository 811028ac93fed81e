/**
 * JPA: the repositories of the domain, the read queries and import log of the application, and the
 * converters that store value objects (UN/LOCODE, voyage number, tracking id) as text columns and
 * parse them once when a row is read. Infrastructure layer rules apply.
 */
package dev.loomlab.cargotracker.infrastructure.persistence;
