package io.cloudg.azure;

/**
 * A subscription to map.
 *
 * @param id the subscription id
 * @param displayName its name, or null when it was configured rather than listed (the resources job then
 *        reads it)
 */
public record AzureSubscription(String id, String displayName) {
    /** The ARM id, {@code /subscriptions/ID}. */
    public String armId() {
        return "/subscriptions/" + id;
    }
}
