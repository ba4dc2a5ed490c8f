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
    private final Timeline timeline;

    AzureEstate(String tenantId, List<AzureSubscription> subscriptions, Map<String, List<AzureResourceGroup>> groups,
                Map<String, List<AzureResource>> resources, int pageSize, Timeline timeline) {
        this.timeline = timeline;
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

    /** Every resource the subscription ever holds (churned ones included), in ordinal order. */
    public List<AzureResource> resources(String subscriptionId) {
        return resources.getOrDefault(subscriptionId, List.of());
    }

    /** The subscription's resources that exist now, in ordinal order. */
    public List<AzureResource> resourcesNow(String subscriptionId) {
        long t = timeline.elapsedNanos();
        List<AzureResource> all = resources(subscriptionId);
        return all.stream().allMatch(r -> r.life().stable()) ? all : all.stream().filter(r -> r.life().existsAt(t)).toList();
    }

    /** Items per ARM list page. */
    public int pageSize() {
        return pageSize;
    }
}
