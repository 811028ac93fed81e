package dev.loomlab.cargotracker.domain.shared;

import java.util.Objects;

/**
 * A business rule that a candidate either meets or not (Evans' Specification pattern). Rules are
 * small and named; the composites let a bigger rule read as the sentence it implements.
 */
@FunctionalInterface
public interface Specification<T> {

    boolean isSatisfiedBy(T candidate);

    default Specification<T> and(Specification<? super T> other) {
        Objects.requireNonNull(other, "other");
        return candidate -> isSatisfiedBy(candidate) && other.isSatisfiedBy(candidate);
    }

    default Specification<T> or(Specification<? super T> other) {
        Objects.requireNonNull(other, "other");
        return candidate -> isSatisfiedBy(candidate) || other.isSatisfiedBy(candidate);
    }

    default Specification<T> negate() {
        return candidate -> !isSatisfiedBy(candidate);
    }
}
