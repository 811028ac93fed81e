package dev.loomlab.app.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.app.api.BadParameterException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fan-out's input rules without a server: query defaults and caps, body checks, the pool size. */
class FanoutInputTest {

    private static ByteArrayInputStream utf8(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void queryDefaultsToTenTasksOfFiftyToAHundredMs() {
        FanoutRequest request = FanoutRequest.parse(null, null, null);
        assertEquals(10, request.tasks());
        assertEquals(50, request.sleep().minMs());
        assertEquals(100, request.sleep().maxMs());
    }

    @Test
    void queryOutOfRangeNamesTheParameter() {
        assertEquals("tasks", assertThrows(BadParameterException.class, () -> FanoutRequest.parse("101", null, null)).parameter());
        assertEquals("maxMs", assertThrows(BadParameterException.class, () -> FanoutRequest.parse(null, null, "60001")).parameter());
        BadParameterException reversed = assertThrows(BadParameterException.class, () -> FanoutRequest.parse(null, "90", "10"));
        assertEquals("minMs", reversed.parameter());
        assertEquals("0..10 (at most maxMs)", reversed.allowed());
    }

    @Test
    void bodyMustBeOneJsonObject() throws IOException {
        assertEquals(2, FanoutBody.read(utf8("{\"a\":1,\"b\":[true,null]}")).size());
        for (String bad : new String[]{"", "{\"a\":", "{\"a\":1} x", "{}{}", "[1]", "\"text\"", "   "}) {
            BadParameterException e = assertThrows(BadParameterException.class, () -> FanoutBody.read(utf8(bad)), bad);
            assertEquals("body", e.parameter(), bad);
        }
    }

    @Test
    void bodyAboveTheCapIsRefusedWithoutReadingItAll() {
        String big = "{\"pad\":\"" + "x".repeat(FanoutBody.DEFAULT_MAX_BYTES) + "\"}";
        BadParameterException e = assertThrows(BadParameterException.class, () -> FanoutBody.read(utf8(big)));
        assertTrue(e.getMessage().contains("larger than " + FanoutBody.DEFAULT_MAX_BYTES), e.getMessage());
    }

    @Test
    void platformPoolSizeIsTheHttpPoolOfServerConfig(@TempDir Path dir) throws Exception {
        Path domainXml = dir.resolve("domain.xml");
        Files.writeString(domainXml, """
                <domain>
                  <configs>
                    <config name="default-config"><thread-pools>
                      <thread-pool name="http-thread-pool" max-thread-pool-size="16"/></thread-pools></config>
                    <config name="server-config"><thread-pools>
                      <thread-pool name="admin-thread-pool" max-thread-pool-size="50"/>
                      <thread-pool name="http-thread-pool" max-thread-pool-size="4000"/></thread-pools></config>
                  </configs>
                </domain>
                """);
        assertEquals(4000, HttpPoolSize.fromDomainXml(domainXml).getAsInt());
    }
}
