/**
 * Building blocks every part of the domain uses: the specification pattern and the exceptions that
 * carry a refusal to the person who asked. Depends on Java SE only.
 */
package dev.loomlab.cargotracker.domain.shared;
