package io.cloudg.resilience.config;

/**
 * One entry of a provider's service table, keyed {@code <service>} or {@code <service>.<Operation>}.
 * An entry replaces the whole built-in entry of the same key: a missing {@code burst} is twice
 * {@code max_rps} (at least 1), a missing {@code max_rps} is the provider's default leaf rate.
 *
 * @param maxRps the leaf rate, or null for the provider default
 * @param burst the leaf burst, or null for twice the rate
 * @param perOperation give each operation of the service its own bucket and breaker
 */
public record ServiceLimit(Double maxRps, Double burst, boolean perOperation) {

    public static ServiceLimit of(double maxRps, double burst) {
        return new ServiceLimit(maxRps, burst, false);
    }

    public static ServiceLimit of(double maxRps) {
        return new ServiceLimit(maxRps, null, false);
    }

    public ServiceLimit perOperation(boolean on) {
        return new ServiceLimit(maxRps, burst, on);
    }
}
