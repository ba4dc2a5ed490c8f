package io.cloudg.config;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** The output sections: how many runs to keep ({@code keep_runs}) and where else to write them ({@code destinations}). */
public final class OutputConfigKeys implements ConfigKeys {
    /** The keys of one entry of {@code destinations} (a PostgreSQL destination, the one type there is). */
    static final Set<String> DESTINATION_KEYS = Set.of("type", "url", "schema", "password_env", "batch_size");

    @Override
    public Set<String> topLevelKeys() {
        return Set.of("keep_runs", "destinations");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>(Set.of("keep_runs"));
        DESTINATION_KEYS.forEach(k -> out.add("destinations[]." + k));
        return out;
    }
}
