package dev.loomlab.cargotracker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dependency rule of the layers, as each layer's package-info states it, checked on the
 * sources: every reference to another layer's package (an import or a qualified name) and every
 * import of a platform API that belongs to an outer layer is a violation.
 */
class LayerDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java");

    /** The layers each layer may use, itself included. */
    private static final Map<String, Set<String>> MAY_USE = Map.of(
            "domain", Set.of("domain"),
            "application", Set.of("application", "domain"),
            "infrastructure", Set.of("infrastructure", "application", "domain"),
            "interfaces", Set.of("interfaces", "application", "domain"));

    /** Platform APIs an inner layer must not import: requests, pages, jobs and JSON are the adapters' business. */
    private static final Map<String, List<String>> MAY_NOT_IMPORT = Map.of(
            "domain", List.of("jakarta.ws.rs", "jakarta.faces", "jakarta.servlet", "jakarta.batch", "jakarta.json",
                    "jakarta.security", "jakarta.enterprise", "jakarta.inject", "jakarta.transaction"),
            "application", List.of("jakarta.ws.rs", "jakarta.faces", "jakarta.servlet", "jakarta.batch", "jakarta.json",
                    "jakarta.security"));

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+dev\\.loomlab\\.cargotracker\\.(\\w+)[\\w.]*;");
    private static final Pattern LAYER_REFERENCE =
            Pattern.compile("\\bdev\\.loomlab\\.cargotracker\\.(domain|application|infrastructure|interfaces)\\b");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?([\\w.]+)");

    record Scan(Map<String, Integer> filesPerLayer, List<String> violations) {
    }

    static Scan scan(Path sources) throws IOException {
        Map<String, Integer> filesPerLayer = new TreeMap<>();
        List<String> violations = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : files) {
            String text = Files.readString(file);
            String name = sources.relativize(file).toString();
            Matcher declared = PACKAGE.matcher(text);
            if (!declared.find() || !MAY_USE.containsKey(declared.group(1))) {
                violations.add(name + " is in no layer (domain, application, infrastructure, interfaces)");
                continue;
            }
            String layer = declared.group(1);
            filesPerLayer.merge(layer, 1, Integer::sum);
            String body = text.substring(declared.end());
            Matcher reference = LAYER_REFERENCE.matcher(body);
            while (reference.find()) {
                if (!MAY_USE.get(layer).contains(reference.group(1))) {
                    violations.add(name + " (" + layer + ") uses " + reference.group(1));
                }
            }
            Matcher imported = IMPORT.matcher(body);
            while (imported.find()) {
                for (String api : MAY_NOT_IMPORT.getOrDefault(layer, List.of())) {
                    if (imported.group(1).startsWith(api + ".")) {
                        violations.add(name + " (" + layer + ") imports " + imported.group(1));
                    }
                }
            }
        }
        return new Scan(filesPerLayer, violations);
    }

    @Test
    void eachLayerUsesOnlyWhatItsPackageInfoAllows() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the cargotracker module: no " + SOURCES.toAbsolutePath());
        Scan scan = scan(SOURCES);
        assertEquals(MAY_USE.keySet(), scan.filesPerLayer().keySet(), "every layer has sources to check");
        assertEquals(List.of(), scan.violations());
    }

    @Test
    void theCheckFindsAnOuterLayerUsedFromAnInnerOne(@TempDir Path sources) throws IOException {
        write(sources, "domain/cargo/Leaky.java", """
                package dev.loomlab.cargotracker.domain.cargo;

                import dev.loomlab.cargotracker.infrastructure.persistence.JpaCargoRepository;
                import jakarta.ws.rs.GET;

                class Leaky {
                }
                """);
        write(sources, "application/booking/Reaching.java", """
                package dev.loomlab.cargotracker.application.booking;

                class Reaching {
                    Object page = new dev.loomlab.cargotracker.interfaces.web.Messages();
                }
                """);
        write(sources, "infrastructure/persistence/Fine.java", """
                package dev.loomlab.cargotracker.infrastructure.persistence;

                import dev.loomlab.cargotracker.application.queries.CargoSummaries;
                import dev.loomlab.cargotracker.domain.cargo.Cargo;

                class Fine {
                }
                """);
        write(sources, "Stray.java", "package dev.loomlab.cargotracker.tools;\n\nclass Stray {\n}\n");

        assertEquals(List.of(
                "Stray.java is in no layer (domain, application, infrastructure, interfaces)",
                "application/booking/Reaching.java (application) uses interfaces",
                "domain/cargo/Leaky.java (domain) uses infrastructure",
                "domain/cargo/Leaky.java (domain) imports jakarta.ws.rs.GET"),
                scan(sources).violations());
    }

    private static void write(Path root, String file, String text) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, text);
    }
}
