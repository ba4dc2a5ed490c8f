package io.cloudg.sim.estate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The Azure tenant: subscriptions, their resource groups and resources. */
public final class AzureEstate {
    private final String tenantId;
    private final List<AzureSubscription> subscriptions;
    private final Map<String, AzureSubscription> byId = new HashMap<>();
    private final Map<String, List<AzureResourceGroup>> groups;
    private final Map<String, List<AzureResource>> resources;
    private final int pageSize;

    AzureEstate(String tenantId, List<AzureSubscription> subscriptions, Map<String, List<AzureResourceGroup>> groups,
                Map<String, List<AzureResource>> resources, int pageSize) {
        this.tenantId = tenantId;
        this.subscriptions = List.copyOf(subscriptions);
        subscriptions.forEach(s -> byId.put(s.id(), s));
        this.groups = Map.copyOf(groups);
        this.resources = Map.copyOf(resources);
        this.pageSize = pageSize;
    }

    public String tenantId() {
        return tenantId;
    }

    public List<AzureSubscription> subscriptions() {
        return subscriptions;
    }

    public AzureSubscription subscription(String id) {
        return byId.get(id);
    }

    public List<AzureResourceGroup> resourceGroups(String subscriptionId) {
        return groups.getOrDefault(subscriptionId, List.of());
    }

    public List<AzureResource> resources(String subscriptionId) {
        return resources.getOrDefault(subscriptionId, List.of());
    }

    /** Items per ARM list page. */
    public int pageSize() {
        return pageSize;
    }
}
