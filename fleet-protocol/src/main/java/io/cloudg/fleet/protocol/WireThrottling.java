package io.cloudg.fleet.protocol;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.report.Counts;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.Map;
import java.util.TreeMap;

/**
 * An execution's throttling counters, shipped with its results so that the coordinator's
 * {@code throttling} block covers the whole fleet: counters per service scope
 * ({@code aws/123456789012/us-east-1/ec2}) and the first reason per scope for calls that were lost.
 */
public record WireThrottling(Map<String, WireCounts> scopes, Map<String, String> skipped) {
    public static final WireThrottling NONE = new WireThrottling(Map.of(), Map.of());

    public WireThrottling {
        scopes = scopes == null ? Map.of() : Map.copyOf(scopes);
        skipped = skipped == null ? Map.of() : Map.copyOf(skipped);
        for (String s : scopes.keySet()) {
            parse(s);
        }
        for (String s : skipped.keySet()) {
            parse(s);
        }
    }

    public static WireThrottling of(ThrottlingStats stats) {
        Map<String, WireCounts> scopes = new TreeMap<>();
        for (Map.Entry<Scope, Counts> e : stats.countsByScope().entrySet()) {
            scopes.put(e.getKey().toString(), WireCounts.of(e.getValue()));
        }
        return new WireThrottling(scopes, stats.skipped());
    }

    static Scope parse(String scope) {
        try {
            return Scope.parse(scope);
        } catch (RuntimeException e) {
            throw Wire.invalid("throttling scope", "provider/account/region/service", scope);
        }
    }
}
