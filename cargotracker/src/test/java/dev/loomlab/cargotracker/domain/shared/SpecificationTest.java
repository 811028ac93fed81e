package dev.loomlab.cargotracker.domain.shared;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpecificationTest {

    private final Specification<Integer> even = n -> n % 2 == 0;
    private final Specification<Integer> positive = n -> n > 0;

    @Test
    void andNeedsBoth() {
        assertTrue(even.and(positive).isSatisfiedBy(4));
        assertFalse(even.and(positive).isSatisfiedBy(-4));
        assertFalse(even.and(positive).isSatisfiedBy(3));
    }

    @Test
    void orNeedsEither() {
        assertTrue(even.or(positive).isSatisfiedBy(-4));
        assertTrue(even.or(positive).isSatisfiedBy(3));
        assertFalse(even.or(positive).isSatisfiedBy(-3));
    }

    @Test
    void negateInverts() {
        assertTrue(even.negate().isSatisfiedBy(3));
        assertFalse(even.negate().isSatisfiedBy(2));
    }
}
