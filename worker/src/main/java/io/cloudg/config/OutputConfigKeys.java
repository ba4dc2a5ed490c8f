package io.cloudg.config;

import java.util.Set;

/** The output sections: how many runs to keep ({@code keep_runs}) and where else to write them ({@code destinations}). */
public final class OutputConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("keep_runs", "destinations");
    }
}
