package dev.loomlab.virtualpool;

import java.lang.reflect.Proxy;
import java.util.Map;
import org.glassfish.grizzly.config.dom.NetworkListener;
import org.glassfish.grizzly.config.dom.ThreadPool;

/** Stand-ins for the configuration beans Grizzly hands to a pool: only the getters a pool reads. */
final class GrizzlyConfig {

    private GrizzlyConfig() {
    }

    static ThreadPool threadPool(String name, String maxThreadPoolSize, String maxQueueSize) {
        return proxy(ThreadPool.class, Map.of("getName", name, "getMaxThreadPoolSize", maxThreadPoolSize,
                "getMaxQueueSize", maxQueueSize, "getIdleThreadTimeoutSeconds", "900"));
    }

    static NetworkListener listener(String name) {
        return proxy(NetworkListener.class, Map.of("getName", name));
    }

    private static <T> T proxy(Class<T> type, Map<String, String> getters) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type}, (self, method, args) -> {
            if (getters.containsKey(method.getName())) {
                return getters.get(method.getName());
            }
            if (method.getName().equals("toString")) {
                return type.getSimpleName() + getters;
            }
            throw new UnsupportedOperationException(method.getName());
        }));
    }
}
