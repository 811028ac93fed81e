package dev.loomlab.app.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.loomlab.api.BadParameterException;
import dev.loomlab.api.Limit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The WAR's side of the fan-out's input without a server: the body read with JSON-P, the pool size (the query is lab-api's). */
class FanoutInputTest {

    private static ByteArrayInputStream utf8(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
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
        int cap = Limit.FANOUT_MAX_BODY_BYTES.value();
        String big = "{\"pad\":\"" + "x".repeat(cap) + "\"}";
        BadParameterException e = assertThrows(BadParameterException.class, () -> FanoutBody.read(utf8(big)));
        assertTrue(e.getMessage().contains("larger than " + cap), e.getMessage());
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
