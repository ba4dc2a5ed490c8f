package io.cloudg.destination;

import io.cloudg.resilience.config.ConfigNode;
import java.util.Map;
import java.util.Set;

/**
 * A kind of destination: the {@code type} of an entry of {@code destinations}, with the keys such an entry
 * takes and how it is read. Each kind declares itself in {@code META-INF/services/io.cloudg.destination.DestinationType}
 * (as each module's configuration sections declare themselves as {@code ConfigKeys}), so that the
 * configuration knows no destination by name. Implementations MUST have a public no-argument constructor and
 * MUST return the same type and keys on every call.
 */
public interface DestinationType {
    /** The {@code type} value that selects it ({@code postgres}). */
    String type();

    /** The keys one entry may have, {@code type} included. */
    Set<String> keys();

    /**
     * Reads one entry ({@code destinations[i]}): wrong values fail naming the key ({@code ConfigErrors}).
     * Nothing is connected yet.
     */
    DestinationSpec load(ConfigNode entry);

    /** The kinds on the class path, by type, in a stable (sorted) order. */
    static Map<String, DestinationType> installed() {
        return InstalledTypes.BY_TYPE;
    }
}
