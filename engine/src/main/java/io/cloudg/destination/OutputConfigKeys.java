package io.cloudg.destination;

import io.cloudg.config.ConfigKeys;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The output sections: how many runs to keep ({@code keep_runs}) and where else to write them
 * ({@code destinations}, each entry with the keys of its {@link DestinationType}).
 */
public final class OutputConfigKeys implements ConfigKeys {

    @Override
    public Set<String> topLevelKeys() {
        return Set.of("keep_runs", "destinations");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>(Set.of("keep_runs"));
        DestinationType.installed().values().forEach(t -> t.keys().forEach(k -> out.add("destinations[]." + k)));
        return out;
    }
}
