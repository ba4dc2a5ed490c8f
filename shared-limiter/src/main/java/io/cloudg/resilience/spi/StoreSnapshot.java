package io.cloudg.resilience.spi;

import java.util.List;

/** The store's leaves and breakers at one moment, for the throttling report. */
public record StoreSnapshot(List<LeafView> leaves, List<BreakerView> breakers) {
    public StoreSnapshot {
        leaves = List.copyOf(leaves);
        breakers = List.copyOf(breakers);
    }

    /** Only the slowed leaves and the troubled breakers ({@link StateStore#troubled()}). */
    public StoreSnapshot troubled() {
        return new StoreSnapshot(leaves.stream().filter(LeafView::slowed).toList(),
                breakers.stream().filter(BreakerView::troubled).toList());
    }
}
