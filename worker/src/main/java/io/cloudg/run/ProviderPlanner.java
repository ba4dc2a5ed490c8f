package io.cloudg.run;

/** One provider's discovery. Closing it releases the clients it built. */
public interface ProviderPlanner extends AutoCloseable {
    ProviderPlan plan();

    @Override
    void close();
}
