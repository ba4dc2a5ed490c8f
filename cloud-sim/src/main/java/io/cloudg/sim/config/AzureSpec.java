package io.cloudg.sim.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Azure tenant.
 *
 * @param subscriptions  number of subscriptions
 * @param tenantId       tenant id (null: derived from the seed)
 * @param locations      locations resources are spread over
 * @param resourceGroups resource groups per subscription
 * @param counts         resources per subscription by ARM type ({@code Microsoft.Compute/virtualMachines})
 * @param pageSize       items per ARM list page before a {@code nextLink}
 */
public record AzureSpec(int subscriptions, String tenantId, List<String> locations, int resourceGroups,
                        Map<String, Integer> counts, int pageSize) {

    public AzureSpec {
        locations = List.copyOf(locations);
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    static AzureSpec read(SpecNode n, AzureSpec dflt) {
        if (!n.present()) {
            return dflt;
        }
        n.onlyKeys("subscriptions", "tenant_id", "locations", "resource_groups", "resources", "page_size");
        Map<String, Integer> counts = new LinkedHashMap<>();
        SpecNode res = n.get("resources");
        if (res.present()) {
            for (Map.Entry<String, SpecNode> e : res.entries().entrySet()) {
                if (!e.getKey().matches("Microsoft\\.[A-Za-z]+/[A-Za-z]+")) {
                    throw e.getValue().error("expected an ARM resource type such as Microsoft.Compute/virtualMachines");
                }
                counts.put(e.getKey(), e.getValue().nonNegativeInt(0));
            }
        } else {
            counts.putAll(dflt.counts());
        }
        return new AzureSpec(n.get("subscriptions").nonNegativeInt(dflt.subscriptions()),
            n.get("tenant_id").matching("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "a GUID",
                dflt.tenantId()),
            n.get("locations").stringList(dflt.locations()),
            n.get("resource_groups").positiveInt(dflt.resourceGroups()),
            counts,
            n.get("page_size").positiveInt(dflt.pageSize()));
    }
}
