package io.cloudg.run;

import java.util.Map;
import java.util.function.Supplier;

/** One provider's discovery. Closing it releases the clients it built. */
public interface ProviderPlanner extends AutoCloseable {
    ProviderPlan plan();

    /**
     * What the last {@link #plan()} learned that re-planning one task later needs (AWS: the management
     * account); never a secret. Recorded in the map's run block ({@code discovery}) so that
     * {@code cloudg map --retry-failed} can re-plan the entries that failed without discovering again.
     */
    default Map<String, String> facts() {
        return Map.of();
    }

    @Override
    void close();

    /** A planner that plans with {@code plan} and, when closed, releases what {@code close} releases. */
    static ProviderPlanner of(Supplier<ProviderPlan> plan, AutoCloseable close) {
        return of(plan, close, Map::of);
    }

    /** As {@link #of(Supplier, AutoCloseable)}, with the facts {@code facts} tells after planning. */
    static ProviderPlanner of(Supplier<ProviderPlan> plan, AutoCloseable close, Supplier<Map<String, String>> facts) {
        return new ProviderPlanner() {
            @Override
            public Map<String, String> facts() {
                return facts.get();
            }

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
