package io.cloudg.resilience.memory;

import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreContract;
import io.cloudg.resilience.time.ManualTimeSource;

class InMemoryStateStoreContractTest extends StateStoreContract {
    @Override
    protected StateStore newStore(ManualTimeSource time) {
        return new InMemoryStateStore(time);
    }
}
