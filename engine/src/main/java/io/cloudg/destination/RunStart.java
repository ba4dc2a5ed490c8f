package io.cloudg.destination;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** What a destination hears when a run starts: its id, mode ({@code embedded}, {@code distributed}), providers and start time. */
public record RunStart(String runId, String mode, List<String> providers, Instant startedAt) {
    public RunStart {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(mode, "mode");
        providers = List.copyOf(providers);
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
