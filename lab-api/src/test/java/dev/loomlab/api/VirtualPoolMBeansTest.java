package dev.loomlab.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** On a JMX server of the test's own, so the JVM's platform server is left as it was. Public: JMX calls the MXBean. */
public class VirtualPoolMBeansTest {

    /** The shape of the pool jar's MXBean: strings, ints, longs, and a write-only attribute to skip. */
    public interface SamplePoolMXBean {
        String getPoolName();

        int getMaxConcurrent();

        long getStarted();

        void setIgnored(int value);
    }

    record SamplePool(String poolName, int maxConcurrent, long started) implements SamplePoolMXBean {
        @Override
        public String getPoolName() {
            return poolName;
        }

        @Override
        public int getMaxConcurrent() {
            return maxConcurrent;
        }

        @Override
        public long getStarted() {
            return started;
        }

        @Override
        public void setIgnored(int value) {
        }
    }

    @Test
    void readsEveryReadableAttributeOfEachPoolWithLowerCaseNames() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        server.registerMBean(new SamplePool("http-thread-pool::b", -1, 7),
                new ObjectName("dev.loomlab:type=VirtualThreadPool,name=\"b\""));
        server.registerMBean(new SamplePool("http-thread-pool::a", 4000, 12_000_000_000L),
                new ObjectName("dev.loomlab:type=VirtualThreadPool,name=\"a\""));
        // Same domain, another type: not a pool.
        server.registerMBean(new SamplePool("other", 1, 1), new ObjectName("dev.loomlab:type=Other,name=\"c\""));

        List<Map<String, Object>> pools = VirtualPoolMBeans.read(server);

        assertEquals(List.of(pool("http-thread-pool::a", 4000, 12_000_000_000L), pool("http-thread-pool::b", -1, 7)), pools);
    }

    @Test
    void noPoolIsAnEmptyList() throws Exception {
        assertEquals(List.of(), VirtualPoolMBeans.read(MBeanServerFactory.newMBeanServer()));
    }

    private static Map<String, Object> pool(String name, long maxConcurrent, long started) {
        Map<String, Object> pool = new LinkedHashMap<>();
        pool.put("poolName", name);
        pool.put("maxConcurrent", maxConcurrent);
        pool.put("started", started);
        return pool;
    }
}
