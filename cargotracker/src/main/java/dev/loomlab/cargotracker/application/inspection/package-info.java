/**
 * Inspecting a cargo after handling, asynchronously and only after the event committed. Application
 * layer rules apply.
 */
package dev.loomlab.cargotracker.application.inspection;
