package dev.loomlab.micro.echo;

/**
 * The bytes of echo request number {@code sequence} on connection {@code connection}: different
 * for every request and connection, so an answer from the wrong request or with a changed byte
 * does not compare equal.
 */
final class EchoMessage {

    private EchoMessage() {
    }

    static void fill(byte[] message, int connection, long sequence) {
        long seed = (connection * 0x9E3779B97F4A7C15L) ^ (sequence * 0xC2B2AE3D27D4EB4FL);
        for (int i = 0; i < message.length; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            message[i] = (byte) (seed >>> 56);
        }
    }
}
