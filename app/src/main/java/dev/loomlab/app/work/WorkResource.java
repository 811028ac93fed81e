package dev.loomlab.app.work;

import dev.loomlab.app.api.BadParameterException;
import dev.loomlab.app.api.QueryParameters;
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
 */
@Path("work")
public class WorkResource {

    public static final String MAX_ROUNDS_PROPERTY = "loomlab.work.maxRounds";

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public JsonObject work(@QueryParam("kind") String kind, @QueryParam("rounds") String rounds,
                           @QueryParam("bits") String bits) throws NoSuchAlgorithmException {
        String chosen = kind == null ? "hash" : kind;
        long start = System.nanoTime();
        var result = JsonBuilders.object().add("kind", chosen);
        switch (chosen) {
            case "hash" -> {
                int n = QueryParameters.intInRange("rounds", rounds, 1, QueryParameters.cap(MAX_ROUNDS_PROPERTY, 1_000_000), 10_000);
                result.add("rounds", n).add("digest", HexFormat.of().formatHex(hashChain(n)));
            }
            case "keypair" -> {
                int keyBits = QueryParameters.intInRange("bits", bits, 1024, 4096, 2048);
                if (keyBits % 1024 != 0) {
                    throw new BadParameterException("bits", "1024, 2048, 3072 or 4096", "bits must be a multiple of 1024 in 1024..4096, was " + keyBits);
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
