package io.cloudg.metrics;

import io.cloudg.config.ConfigKeys;
import java.util.Set;

/** The section the metrics read: {@code metrics}. */
public final class MetricsConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("metrics");
    }
}
