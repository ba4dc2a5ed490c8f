package io.cloudg.run;

import java.util.function.Supplier;

/** One provider's discovery. Closing it releases the clients it built. */
public interface ProviderPlanner extends AutoCloseable {
    ProviderPlan plan();

    @Override
    void close();

    /** A planner that plans with {@code plan} and, when closed, releases what {@code close} releases. */
    static ProviderPlanner of(Supplier<ProviderPlan> plan, AutoCloseable close) {
        return new ProviderPlanner() {
            @Override
            public ProviderPlan plan() {
                return plan.get();
            }

            @Override
            public void close() {
                try {
                    close.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("closing a provider's planner failed", e);
                }
            }
        };
    }
}
