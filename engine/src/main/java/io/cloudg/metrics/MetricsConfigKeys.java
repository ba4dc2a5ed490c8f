package io.cloudg.metrics;

import io.cloudg.config.ConfigKeys;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** The section the metrics read: {@code metrics}. */
public final class MetricsConfigKeys implements ConfigKeys {
    @Override
    public Set<String> topLevelKeys() {
        return Set.of("metrics");
    }

    @Override
    public SortedSet<String> documentedKeys() {
        SortedSet<String> out = new TreeSet<>();
        MetricsSettings.KEYS.stream().filter(k -> !k.equals("otlp")).forEach(k -> out.add("metrics." + k));
        MetricsSettings.OTLP_KEYS.forEach(k -> out.add("metrics.otlp." + k
                + (k.equals("headers") || k.equals("headers_env") ? ".<name>" : "")));
        return out;
    }
}
