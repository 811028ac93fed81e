package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.location.UnLocode;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * Every {@link UnLocode} attribute is stored as its five-character code (autoApply: the domain
 * names no converter). Checked once when a row is read, never again by the getters.
 */
@Converter(autoApply = true)
public class UnLocodeConverter implements AttributeConverter<UnLocode, String> {

    @Override
    public String convertToDatabaseColumn(UnLocode code) {
        return code == null ? null : code.code();
    }

    @Override
    public UnLocode convertToEntityAttribute(String column) {
        return column == null ? null : new UnLocode(column);
    }
}
