package dev.loomlab.api;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The counters of the virtual-thread pools that the lab's virtual-pool jar registers over JMX
 * ({@code dev.loomlab:type=VirtualThreadPool,name=...}), for {@code /api/info}'s
 * {@code "virtualPools"}. Every readable attribute of each pool, so the answer follows the pool's
 * MXBean without a second list of names: keyed by the attribute's name with a lower-case first
 * letter ({@code PeakActive} is {@code peakActive}), numbers as {@link Long}, anything else as its
 * string. Read by name over JMX because the pool sits on the server's class path, not the
 * application's.
 */
public final class VirtualPoolMBeans {

    /** Every MBean the pool jar registers, whatever its pool's name. */
    static final String QUERY = "dev.loomlab:type=VirtualThreadPool,*";

    private VirtualPoolMBeans() {
    }

    /** The pools of this JVM, sorted by MBean name; empty when none is installed (platform modes). */
    public static List<Map<String, Object>> read() throws JMException {
        return read(ManagementFactory.getPlatformMBeanServer());
    }

    static List<Map<String, Object>> read(MBeanServer server) throws JMException {
        List<Map<String, Object>> pools = new ArrayList<>();
        for (ObjectName name : new TreeSet<>(server.queryNames(new ObjectName(QUERY), null))) {
            try {
                pools.add(attributes(server, name));
            } catch (InstanceNotFoundException e) {
                // Unregistered since the query (a reconfigured listener replaces its pool): no longer there.
            }
        }
        return pools;
    }

    private static Map<String, Object> attributes(MBeanServer server, ObjectName name) throws JMException {
        String[] readable = Arrays.stream(server.getMBeanInfo(name).getAttributes())
                .filter(MBeanAttributeInfo::isReadable)
                .map(MBeanAttributeInfo::getName)
                .toArray(String[]::new);
        Map<String, Object> pool = new LinkedHashMap<>();
        for (Attribute attribute : server.getAttributes(name, readable).asList()) {
            Object value = attribute.getValue();
            pool.put(lowerFirst(attribute.getName()), value instanceof Number number ? number.longValue() : String.valueOf(value));
        }
        return pool;
    }

    private static String lowerFirst(String name) {
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
}
