package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The field names that ./lab and the tests read (labkit: pid, java.version, request.*, server.name). */
class ServerInfoTest {

    private static JsonObject parse(ServerInfo info) {
        return jakarta.json.Json.createReader(new StringReader(info.toJson())).readObject();
    }

    @AfterEach
    void forgetTheProperties() {
        System.clearProperty(Limit.SLEEP_MAX_DEPTH.property());
    }

    @Test
    void theWarsAnswerInItsOrder() {
        SleepGauge gauge = new SleepGauge();
        gauge.enter();
        gauge.enter();
        gauge.leave();
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("poolName", "http-thread-pool::http-listener");
        pool.put("peakActive", 300L);
        System.setProperty(Limit.SLEEP_MAX_DEPTH.property(), "5000");

        JsonObject info = parse(ServerInfo.create().sleepGauge(gauge).fanoutPlatformThreads(4000).virtualPools(List.of(pool)));

        assertEquals(List.of("pid", "java", "processors", "maxHeapBytes", "uptimeMs", "threads", "request", "sleeping",
                "limits", "fanout", "virtualPools"), List.copyOf(info.keySet()));
        assertEquals(ProcessHandle.current().pid(), info.getJsonNumber("pid").longValue());
        assertEquals(Runtime.version().toString(), info.getJsonObject("java").getString("version"));
        assertEquals(List.of("version", "vendor", "vm"), List.copyOf(info.getJsonObject("java").keySet()));
        assertEquals(List.of("live", "peak", "daemon", "started"), List.copyOf(info.getJsonObject("threads").keySet()));
        assertTrue(info.getJsonObject("threads").getInt("live") >= 1);
        assertEquals(Thread.currentThread().getName(), info.getJsonObject("request").getString("thread"));
        assertFalse(info.getJsonObject("request").getBoolean("virtual"));
        assertEquals(1, info.getJsonObject("sleeping").getInt("now"));
        assertEquals(2, info.getJsonObject("sleeping").getInt("peak"));
        JsonObject limits = info.getJsonObject("limits");
        assertEquals(List.of("sleepMaxMs", "sleepMaxDepth", "fanoutMaxTasks", "fanoutMaxBodyBytes"), List.copyOf(limits.keySet()));
        assertEquals(60_000, limits.getInt("sleepMaxMs"));
        assertEquals(5000, limits.getInt("sleepMaxDepth"));
        assertEquals(4000, info.getJsonObject("fanout").getInt("platformThreads"));
        JsonObject written = info.getJsonArray("virtualPools").getJsonObject(0);
        assertEquals("http-thread-pool::http-listener", written.getString("poolName"));
        assertEquals(300, written.getInt("peakActive"));
    }

    @Test
    void aBaselinesAnswerDescribesTheServerAndHasNoPools() {
        JsonObject info = parse(ServerInfo.create().sleepGauge(new SleepGauge())
                .server(new ServerDescription("jdk-virtual", "JDK HttpServer: a new virtual thread per request", null)));

        assertEquals(List.of("pid", "java", "processors", "maxHeapBytes", "uptimeMs", "threads", "request", "sleeping",
                "limits", "server", "virtualPools"), List.copyOf(info.keySet()));
        JsonObject server = info.getJsonObject("server");
        assertEquals("jdk-virtual", server.getString("name"));
        assertEquals("JDK HttpServer: a new virtual thread per request", server.getString("description"));
        assertTrue(server.isNull("maxConcurrent"));
        assertEquals(0, info.getJsonArray("virtualPools").size());
    }

    @Test
    void anAppWithoutTheSleepEndpointNamesItselfFirst() {
        JsonObject info = parse(ServerInfo.create().app("cargotracker"));

        assertEquals(List.of("app", "pid", "java", "processors", "maxHeapBytes", "uptimeMs", "threads", "request",
                "virtualPools"), List.copyOf(info.keySet()));
        assertEquals("cargotracker", info.getString("app"));
    }

    @Test
    void theRequestIsTheThreadThatWritesTheAnswer() throws Exception {
        ServerInfo info = ServerInfo.create();
        String[] written = new String[1];
        Thread.ofVirtual().name("request-virtual-7").start(() -> written[0] = info.toJson()).join();

        JsonObject request = jakarta.json.Json.createReader(new StringReader(written[0])).readObject().getJsonObject("request");
        assertEquals("request-virtual-7", request.getString("thread"));
        assertTrue(request.getBoolean("virtual"));
    }
}
