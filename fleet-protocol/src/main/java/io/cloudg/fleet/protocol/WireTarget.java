package io.cloudg.fleet.protocol;

import io.cloudg.run.TaskTarget;
import java.util.List;
import java.util.Map;

/**
 * A {@link TaskTarget} on the wire: {@code {"provider": "aws", "account_id": "...", "region": "us-east-1",
 * "collectors": ["vpc", "subnets"], "discovery": {"management_account": "..."}}}. Never a credential.
 */
public record WireTarget(String provider, String accountId, String region, List<String> collectors,
                         Map<String, String> discovery) {
    public WireTarget {
        Wire.required("target.provider", provider);
        Wire.required("target.account_id", accountId);
        Wire.required("target.region", region);
        if (collectors == null || collectors.isEmpty()) {
            throw Wire.missing("target.collectors");
        }
        for (String c : collectors) {
            Wire.required("target.collectors entry", c);
        }
        collectors = List.copyOf(collectors);
        discovery = discovery == null ? Map.of() : Map.copyOf(discovery);
    }

    public static WireTarget of(TaskTarget t) {
        return new WireTarget(t.provider(), t.accountId(), t.region(), t.collectors(), t.discovery());
    }

    public TaskTarget toTarget() {
        return new TaskTarget(provider, accountId, region, collectors, discovery);
    }
}
