package io.cloudg.run;

import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CallShape} of each provider's collectors, as each provider's {@link CallShapeSource} says (AWS's
 * come from its collector catalog: an entry's operations after its listing are its per-item calls); a
 * collector no source knows (Azure's and GCP's listings, sweeps) is a plain listing of a service named after it.
 *
 * <p>{@link #DEFAULTS} holds the sources the class path declares, at the providers' default settings; a run's
 * configuration can change a shape (the types AWS's Cloud Control sweep lists are {@code aws.cloudcontrol_types}),
 * so a run takes {@link #with} the source its configuration builds. Immutable and thread-safe.
 */
public final class CallShapes {
    /** The class path's sources, at the providers' default settings. */
    public static final CallShapes DEFAULTS = new CallShapes(load());

    private final Map<String, CallShapeSource> sources;
    private final Map<String, CallShape> cache = new ConcurrentHashMap<>();

    private CallShapes(Map<String, CallShapeSource> sources) {
        this.sources = Map.copyOf(sources);
    }

    /** The shape of {@code collector} of {@code provider} at the providers' default settings. */
    public static CallShape of(String provider, String collector) {
        return DEFAULTS.shape(provider, collector);
    }

    /** The shape of {@code collector} of {@code provider}. */
    public CallShape shape(String provider, String collector) {
        return cache.computeIfAbsent(provider + "/" + collector, k -> find(provider, collector));
    }

    /** These shapes, with {@code source} answering for its provider in place of the one it had. */
    public CallShapes with(CallShapeSource source) {
        Map<String, CallShapeSource> m = new HashMap<>(sources);
        m.put(source.provider(), source);
        return new CallShapes(m);
    }

    private CallShape find(String provider, String collector) {
        CallShapeSource source = sources.get(provider);
        CallShape s = source == null ? null : source.shapeOf(collector);
        return s != null ? s : CallShape.listing(collector, null);
    }

    private static Map<String, CallShapeSource> load() {
        Map<String, CallShapeSource> m = new HashMap<>();
        for (CallShapeSource s : ServiceLoader.load(CallShapeSource.class, CallShapeSource.class.getClassLoader())) {
            m.putIfAbsent(s.provider(), s);
        }
        return m;
    }
}
