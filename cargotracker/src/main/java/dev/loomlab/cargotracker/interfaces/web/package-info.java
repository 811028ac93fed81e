/**
 * The Faces pages' backing beans and view models, one sub-package per part of the site (admin,
 * booking flow, event logger, login, tracking) and {@code view} for the words and formats they share.
 * Interfaces layer rules apply.
 */
package dev.loomlab.cargotracker.interfaces.web;
