package dev.loomlab.micro.jmh;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.concurrent.Callable;

/**
 * The CPU task: generate one key pair. Pure computation that never blocks, so a thread running
 * it never gives its core away voluntarily.
 * <p>
 * EC on P-256 (not RSA-2048 as in the app's /api/work) keeps one task well under a
 * millisecond, so an op of a thousand tasks still fits in a short JMH iteration.
 */
public final class KeyPairTask implements Callable<Long> {

    private final String algorithm;
    private final int bits;

    public KeyPairTask(String algorithm, int bits) {
        this.algorithm = algorithm;
        this.bits = bits;
    }

    public static KeyPairTask ellipticCurve() {
        return new KeyPairTask("EC", 256);
    }

    /** Returns the encoded public key's size, so the work cannot be optimised away. */
    @Override
    public Long call() throws GeneralSecurityException {
        // A generator is not thread-safe; a fresh one per task keeps tasks independent.
        KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
        generator.initialize(bits);
        KeyPair pair = generator.generateKeyPair();
        return (long) pair.getPublic().getEncoded().length;
    }
}
