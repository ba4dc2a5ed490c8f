package io.cloudg.destination.postgres;

import io.cloudg.destination.DestinationSpec;
import io.cloudg.destination.DestinationType;
import io.cloudg.resilience.config.ConfigNode;
import java.util.Set;

/** {@code type: postgres} entries of {@code destinations} ({@link PostgresSpec#load}). */
public final class PostgresType implements DestinationType {
    @Override
    public String type() {
        return PostgresSpec.TYPE;
    }

    @Override
    public Set<String> keys() {
        return PostgresSpec.KEYS;
    }

    @Override
    public DestinationSpec load(ConfigNode entry) {
        return PostgresSpec.load(entry);
    }
}
