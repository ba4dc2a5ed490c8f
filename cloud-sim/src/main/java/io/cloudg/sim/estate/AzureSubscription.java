package io.cloudg.sim.estate;

/** One Azure subscription. */
public record AzureSubscription(String id, String displayName, String tenantId) {
    /** ARM id {@code /subscriptions/ID}. */
    public String armId() {
        return "/subscriptions/" + id;
    }
}
