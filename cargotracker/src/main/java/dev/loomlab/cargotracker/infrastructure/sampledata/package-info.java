/** Ports, voyages and one cargo per state, loaded at start when the database is empty. Infrastructure layer rules apply. */
package dev.loomlab.cargotracker.infrastructure.sampledata;
