package io.cloudg.resilience.spi;

/**
 * How a shared state store is doing, for the throttling report. A store that is always local (memory)
 * has no status.
 *
 * @param backend the shared backend, e.g. {@code redis}
 * @param degradedNow whether calls are being paced by the local fallback right now
 * @param degradedNanos time spent degraded so far, the current episode included
 * @param episodes how many times the store has lost the shared backend
 */
public record StoreStatus(String backend, boolean degradedNow, long degradedNanos, long episodes) {
    /** {@code degraded} if the shared backend was lost at any time, else the backend's name. */
    public String mode() {
        return episodes > 0 ? "degraded" : backend;
    }

    public boolean everDegraded() {
        return episodes > 0;
    }
}
