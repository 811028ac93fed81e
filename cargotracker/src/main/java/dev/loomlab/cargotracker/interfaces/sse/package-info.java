/** The Server-Sent Events stream of committed cargo updates. Interfaces layer rules apply. */
package dev.loomlab.cargotracker.interfaces.sse;
