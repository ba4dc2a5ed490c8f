package io.cloudg.destination;

/**
 * A configured destination, not yet connected: one entry of {@code destinations} in cloudg.yaml (or
 * {@code --postgres URL}). Immutable; holds no open resource.
 */
public interface DestinationSpec {
    /** The {@code type} of its configuration entry ({@code postgres}). */
    String type();

    /** What it is, for people, without a password. */
    String describe();

    /**
     * Connects and prepares (creates or migrates what it needs) before the run starts.
     *
     * @throws io.cloudg.config.StartupException with one line naming the destination when it cannot be used
     */
    Destination open();

    /** Assets per batch it wants ({@link Destinations#DEFAULT_BATCH} unless it is configured otherwise). */
    default int batchSize() {
        return Destinations.DEFAULT_BATCH;
    }
}
