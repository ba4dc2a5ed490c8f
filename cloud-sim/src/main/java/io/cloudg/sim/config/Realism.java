package io.cloudg.sim.config;

import java.util.Locale;

/**
 * How closely the simulator behaves like the real providers ({@code realism:} in the estate file).
 *
 * <p>{@link #LENIENT} (the default) is the simulator as it was first built, kind to quick demos: AWS throttles
 * carry {@code Retry-After}, ARM's is the bucket's exact wait, GCP quotas are charged to the target project
 * and answer with an exact {@code RetryInfo}, every quota is a continuously refilled bucket, pages are full,
 * tokens are offsets and the estate stands still. {@link #STRICT} is the real clouds as their documentation
 * and observation describe them: see {@code docs/cloud-sim.md} for everything it changes.
 */
public enum Realism {
    STRICT, LENIENT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean strict() {
        return this == STRICT;
    }

    static Realism read(SpecNode n) {
        String s = n.string(null);
        if (s == null) {
            return LENIENT;
        }
        for (Realism r : values()) {
            if (r.id().equals(s)) {
                return r;
            }
        }
        throw n.error("expected strict or lenient, got \"" + s + "\"");
    }
}
