package io.cloudg.mcp.guard;

import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;

class InMemoryGuardStoreTest extends GuardStoreContract {
    private final ManualTimeSource time = new ManualTimeSource();

    @Override
    protected GuardStore store() {
        return new InMemoryGuardStore(time);
    }

    @Override
    protected void advance(Duration d) {
        time.advance(d);
    }
}
