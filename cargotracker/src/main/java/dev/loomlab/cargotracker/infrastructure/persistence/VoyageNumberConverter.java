package dev.loomlab.cargotracker.infrastructure.persistence;

import dev.loomlab.cargotracker.domain.voyage.VoyageNumber;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Every {@link VoyageNumber} attribute is stored as its text, e.g. PAC-251124 (autoApply). */
@Converter(autoApply = true)
public class VoyageNumberConverter implements AttributeConverter<VoyageNumber, String> {

    @Override
    public String convertToDatabaseColumn(VoyageNumber number) {
        return number == null ? null : number.number();
    }

    @Override
    public VoyageNumber convertToEntityAttribute(String column) {
        return column == null ? null : new VoyageNumber(column);
    }
}
