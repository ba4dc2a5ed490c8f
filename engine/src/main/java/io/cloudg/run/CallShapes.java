package io.cloudg.run;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CallShape} of each provider's collectors, as each provider's {@link CallShapeSource} says (AWS's
 * come from its collector catalog: an entry's operations after its listing are its per-item calls); a
 * collector no source knows (Azure's and GCP's listings, sweeps) is a plain listing of a service named after it.
 */
public final class CallShapes {
    private static final Map<String, CallShapeSource> SOURCES = load();
    private static final Map<String, CallShape> CACHE = new ConcurrentHashMap<>();

    private CallShapes() {
    }

    public static CallShape of(String provider, String collector) {
        return CACHE.computeIfAbsent(provider + "/" + collector, k -> shape(provider, collector));
    }

    private static CallShape shape(String provider, String collector) {
        CallShapeSource source = SOURCES.get(provider);
        CallShape s = source == null ? null : source.shapeOf(collector);
        return s != null ? s : CallShape.listing(collector, null);
    }

    private static Map<String, CallShapeSource> load() {
        Map<String, CallShapeSource> m = new HashMap<>();
        for (CallShapeSource s : ServiceLoader.load(CallShapeSource.class, CallShapeSource.class.getClassLoader())) {
            m.putIfAbsent(s.provider(), s);
        }
        return Map.copyOf(m);
    }
}
