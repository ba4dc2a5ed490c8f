package io.cloudg.inventory;

/** Where collectors put what they find. Implementations MUST be thread-safe. */
@FunctionalInterface
public interface AssetSink {
    void accept(Asset asset);
}
