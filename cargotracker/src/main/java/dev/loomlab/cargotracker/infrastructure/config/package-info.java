/** Settings read from the environment (the data folder) and the clock the services are given. Infrastructure layer rules apply. */
package dev.loomlab.cargotracker.infrastructure.config;
