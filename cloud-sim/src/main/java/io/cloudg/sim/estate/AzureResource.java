package io.cloudg.sim.estate;

import java.util.Locale;

/**
 * One ARM resource.
 *
 * @param type    ARM type, {@code Microsoft.Compute/virtualMachines}
 * @param ordinal its place in the subscription's listing (page cursors are ordinals)
 * @param life    when it exists ({@link Lifetime#ALWAYS} unless it churns while a map runs)
 * @param env     its {@code env} tag, set by the estate generation that last modified it; null if none
 */
public record AzureResource(String subscriptionId, String resourceGroup, String type, String name, String location,
                            long ordinal, Lifetime life, String env) {
    /** Full ARM id. */
    public String armId() {
        return "/subscriptions/" + subscriptionId + "/resourceGroups/" + resourceGroup + "/providers/" + type + "/" + name;
    }

    /** Resource provider namespace, {@code Microsoft.Compute}. */
    public String namespace() {
        return type.substring(0, type.indexOf('/'));
    }

    public String typeLower() {
        return type.toLowerCase(Locale.ROOT);
    }
}
