package io.cloudg.resilience;

/** A view of one provider's retry budget. */
public final class RetryBudget {
    private final Governor governor;
    private final String provider;

    RetryBudget(Governor governor, String provider) {
        this.governor = governor;
        this.provider = provider;
    }

    public String provider() {
        return provider;
    }

    /** Tokens left (fractions come from the 0.1-token refunds). */
    public double remaining() {
        return governor.store().retryBudgetRemaining(provider, size());
    }

    /** The configured size, {@code retry_budget}. */
    public int size() {
        return governor.config().provider(provider).retryBudget();
    }

    @Override
    public String toString() {
        return "RetryBudget{" + provider + ": " + remaining() + "/" + size() + "}";
    }
}
