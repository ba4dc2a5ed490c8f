package io.cloudg.config;

import java.util.Set;

/**
 * The top-level keys of {@code cloudg.yaml} one module reads. Each module that reads a section declares it
 * in {@code META-INF/services/io.cloudg.config.ConfigKeys}, so that {@link ConfigFile} warns about a key
 * only when no module on the class path reads it. Implementations MUST have a public no-argument
 * constructor and MUST return the same keys on every call.
 */
public interface ConfigKeys {
    Set<String> topLevelKeys();
}
