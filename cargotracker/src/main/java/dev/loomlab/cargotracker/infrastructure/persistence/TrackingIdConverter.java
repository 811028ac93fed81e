package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.cargo.TrackingId;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * Every {@link TrackingId} attribute that is not a primary key (a handling event's cargo) is stored
 * as its text (autoApply). JPA converts no {@code @Id}: the entities keep their keys as text and
 * parse them once when loaded.
 */
@Converter(autoApply = true)
public class TrackingIdConverter implements AttributeConverter<TrackingId, String> {

    @Override
    public String convertToDatabaseColumn(TrackingId id) {
        return id == null ? null : id.id();
    }

    @Override
    public TrackingId convertToEntityAttribute(String column) {
        return column == null ? null : new TrackingId(column);
    }
}
