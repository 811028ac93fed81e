package dev.loomlab.micro.echo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommandLineTest {

    private static final Set<String> KNOWN = Set.of("port", "client");

    @Test
    void readsValuesAndFallsBackToDefaults() {
        CommandLine line = new CommandLine(new String[]{"--port", "18321"}, KNOWN);
        assertEquals(18321, line.number("port", 1, 65535, 1));
        assertEquals("nio", line.choice("client", List.of("nio", "virtual"), "nio"));
    }

    @Test
    void explainsWhatIsWrong() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> new CommandLine(new String[]{"--prot", "1"}, KNOWN));
        assertTrue(unknown.getMessage().contains("unknown option '--prot'"), unknown.getMessage());

        assertThrows(IllegalArgumentException.class, () -> new CommandLine(new String[]{"--port"}, KNOWN));

        CommandLine line = new CommandLine(new String[]{"--port", "70000", "--client", "fiber"}, KNOWN);
        IllegalArgumentException range = assertThrows(IllegalArgumentException.class,
                () -> line.number("port", 1, 65535, 1));
        assertTrue(range.getMessage().contains("1..65535"), range.getMessage());
        assertThrows(IllegalArgumentException.class, () -> line.choice("client", List.of("nio"), "nio"));
        CommandLine notANumber = new CommandLine(new String[]{"--port", "abc"}, KNOWN);
        assertThrows(IllegalArgumentException.class, () -> notANumber.number("port", 1, 65535, 1));
    }
}
