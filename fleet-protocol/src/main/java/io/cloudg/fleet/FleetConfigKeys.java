package io.cloudg.fleet;

import io.cloudg.config.ConfigKeys;
import java.util.Set;
import java.util.SortedSet;

/** The {@code fleet} section ({@link FleetSettings}), read by the coordinator and the workers. */
public final class FleetConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("fleet");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        return FleetSettings.documentedKeys();
    }
}
