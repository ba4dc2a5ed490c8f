package io.cloudg.metrics;

import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;

/** Timing the store's round trips changes none of its behaviour: the backend contract, through the decorator. */
class TimedStateStoreContractTest extends StateStoreContract {
    @Override
    protected StateStore newStore(ManualTimeSource time) {
        CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "test", time);
        StateStore timed = TimedStateStore.wrap(new InMemoryStateStore(time), metrics);
        if (!(timed instanceof TimedStateStore)) {
            throw new AssertionError("expected the decorator");
        }
        return timed;
    }
}
