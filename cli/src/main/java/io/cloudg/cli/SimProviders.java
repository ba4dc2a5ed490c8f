package io.cloudg.cli;

import java.util.List;

/** The providers {@code cloudg map --sim} maps when none is named. */
final class SimProviders {
    static final List<String> AVAILABLE = List.of("aws", "azure", "gcp");

    private SimProviders() {
    }
}
