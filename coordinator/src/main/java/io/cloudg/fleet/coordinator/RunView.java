package io.cloudg.fleet.coordinator;

import java.util.Map;

/**
 * A snapshot of a running fleet map, safe to read from any thread.
 *
 * @param runningByWorker executions started and not ended, per worker
 */
public record RunView(String runId, int done, int total, Map<String, Integer> runningByWorker, long assets,
                      long duplicates, int retries, int deadLetters) {
    public RunView {
        runningByWorker = Map.copyOf(runningByWorker);
    }
}
