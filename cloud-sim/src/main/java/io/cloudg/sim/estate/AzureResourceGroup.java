package io.cloudg.sim.estate;

/** One resource group. */
public record AzureResourceGroup(String subscriptionId, String name, String location) {
    public String armId() {
        return "/subscriptions/" + subscriptionId + "/resourceGroups/" + name;
    }
}
