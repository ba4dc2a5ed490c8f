package io.cloudg.resilience.spi;

import java.util.List;

/** The store's leaves and breakers at one moment, for the throttling report. */
public record StoreSnapshot(List<LeafView> leaves, List<BreakerView> breakers) {
    public StoreSnapshot {
        leaves = List.copyOf(leaves);
        breakers = List.copyOf(breakers);
    }
}
