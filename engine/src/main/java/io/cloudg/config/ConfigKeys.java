package io.cloudg.config;

import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The top-level keys of {@code cloudg.yaml} one module reads. Each module that reads a section declares it
 * in {@code META-INF/services/io.cloudg.config.ConfigKeys}, so that {@link ConfigFile} warns about a key
 * only when no module on the class path reads it. Implementations MUST have a public no-argument
 * constructor and MUST return the same keys on every call.
 */
public interface ConfigKeys {
    Set<String> topLevelKeys();

    /**
     * Every key the module reads, as a dotted path ({@code aws.endpoint_url}, {@code fleet.kafka.properties.<name>}),
     * with {@code <...>} standing for names the user chooses: what {@code docs/configuration.md} documents, and
     * what a test holds it to. By default the top-level keys.
     */
    default SortedSet<String> documentedKeys() {
        return new TreeSet<>(topLevelKeys());
    }

    /** {@code prefix.key} for each of {@code keys}. */
    static SortedSet<String> under(String prefix, Set<String> keys) {
        SortedSet<String> out = new TreeSet<>();
        keys.forEach(k -> out.add(prefix + "." + k));
        return out;
    }
}
