/** Jakarta Security: the admin account and how a request proves it is the admin. Infrastructure layer rules apply. */
package dev.loomlab.cargotracker.infrastructure.security;
