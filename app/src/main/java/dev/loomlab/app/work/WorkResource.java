package dev.loomlab.app.work;

import dev.loomlab.api.BadParameterException;
import dev.loomlab.api.QueryParameters;
import dev.loomlab.app.api.JsonBuilders;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * {@code GET /api/work?kind=hash&rounds=10000} or {@code ?kind=keypair&bits=2048}: CPU-bound work
 * that never blocks, to compare with the sleep endpoint on the same threads.
 * <p>
 * Both are capped so that one request holds its thread for tens of milliseconds, not seconds:
 * virtual threads are not time-sliced, so in the unbounded virtual modes as many long computations
 * as there are cores would occupy every carrier and stall all other requests.
 */
@Path("work")
public class WorkResource {

    public static final String MAX_ROUNDS_PROPERTY = "loomlab.work.maxRounds";
    /** About 30 ms of SHA-256 on one core. */
    static final int DEFAULT_MAX_ROUNDS = 100_000;
    /** A 2048-bit RSA key takes about 0.1 s; 4096 bits take seconds, with a long tail. */
    static final int MAX_KEY_BITS = 2048;
    private static final String WHY_CAPPED = "a request computes on its carrier thread, and virtual threads are not time-sliced";

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject work(@QueryParam("kind") String kind, @QueryParam("rounds") String rounds,
                           @QueryParam("bits") String bits) throws NoSuchAlgorithmException {
        String chosen = kind == null ? "hash" : kind;
        long start = System.nanoTime();
        var result = JsonBuilders.object().add("kind", chosen);
        switch (chosen) {
            case "hash" -> {
                int maxRounds = QueryParameters.cap(MAX_ROUNDS_PROPERTY, DEFAULT_MAX_ROUNDS);
                int n = QueryParameters.intInRange("rounds", rounds, 1, maxRounds, 10_000,
                        WHY_CAPPED + "; -D" + MAX_ROUNDS_PROPERTY + " changes the cap");
                result.add("rounds", n).add("digest", HexFormat.of().formatHex(hashChain(n)));
            }
            case "keypair" -> {
                int keyBits = QueryParameters.intInRange("bits", bits, 1024, MAX_KEY_BITS, 2048, WHY_CAPPED);
                if (keyBits % 1024 != 0) {
                    throw new BadParameterException("bits", "1024 or 2048", "bits must be 1024 or 2048, was " + keyBits);
                }
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(keyBits);
                generator.generateKeyPair();
                result.add("bits", keyBits);
            }
            default -> throw new BadParameterException("kind", "hash or keypair", "kind must be hash or keypair, was \"" + chosen + "\"");
        }
        Thread thread = Thread.currentThread();
        return result.add("virtual", thread.isVirtual())
                .add("thread", thread.getName())
                .add("elapsedMs", (System.nanoTime() - start) / 1_000_000.0)
                .build();
    }

    /** SHA-256 applied {@code rounds} times to its own output. */
    static byte[] hashChain(int rounds) throws NoSuchAlgorithmException {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        byte[] value = "loomlab".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < rounds; i++) {
            value = sha256.digest(value);
        }
        return value;
    }
}
