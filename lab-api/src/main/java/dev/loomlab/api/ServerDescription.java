package dev.loomlab.api;

/**
 * What a baseline server is, for {@code /api/info}'s {@code "server"}: its target name, how it runs
 * requests, and how many it runs at once (null: no limit).
 */
public record ServerDescription(String name, String description, Integer maxConcurrent) {
}
