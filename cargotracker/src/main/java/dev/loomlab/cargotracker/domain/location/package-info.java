/**
 * Places: the UN/LOCODE value object and the locations it names. Same dependency rule as the whole
 * domain layer.
 */
package dev.loomlab.cargotracker.domain.location;
