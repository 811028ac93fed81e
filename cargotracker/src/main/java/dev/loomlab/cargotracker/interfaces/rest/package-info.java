/**
 * The JSON API under {@code /api}: resources, their request and answer records (written by JSON-B,
 * the one way this application writes JSON), and the mappers that give every error the same shape.
 * Interfaces layer rules apply.
 */
package dev.loomlab.cargotracker.interfaces.rest;
