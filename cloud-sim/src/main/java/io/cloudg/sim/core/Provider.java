package io.cloudg.sim.core;

import java.util.Locale;

/** The three clouds the simulator speaks for. */
public enum Provider {
    AWS, AZURE, GCP;

    /** Lower-case name used in files, keys and JSON. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code aws}, {@code azure} or {@code gcp}; null when unknown. */
    public static Provider parse(String s) {
        for (Provider p : values()) {
            if (p.id().equals(s)) {
                return p;
            }
        }
        return null;
    }
}
