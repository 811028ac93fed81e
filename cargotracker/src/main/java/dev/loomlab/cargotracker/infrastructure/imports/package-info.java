/** Where uploaded import files wait for their job: the data folder. Infrastructure layer rules apply. */
package dev.loomlab.cargotracker.infrastructure.imports;
