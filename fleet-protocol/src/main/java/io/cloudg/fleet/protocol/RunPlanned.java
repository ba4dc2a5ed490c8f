package io.cloudg.fleet.protocol;

import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import java.util.List;
import java.util.Map;

/**
 * Seals a run's plan: how many tasks in how many chunks, the discovery coverage, and where the run's
 * results, dead letters and tasks begin in their topics (partition to offset), so that a resumed
 * coordinator reads exactly this run's messages. {@code skipped}: the accounts discovery left out
 * ({@code summary.skipped_accounts}); absent in journals written before it existed.
 */
public record RunPlanned(int v, String runId, long createdAt, List<String> providers, int taskCount, int chunkCount,
                         long taskTimeoutMs, int maxAttempts, List<CoverageRecord> discovery,
                         Map<Integer, Long> resultsStart, Map<Integer, Long> deadLettersStart,
                         Map<Integer, Long> tasksStart, List<SkippedAccount> skipped) implements JournalEntry {
    public RunPlanned {
        Wire.version(v);
        Wire.required("run_id", runId);
        providers = List.copyOf(Wire.required("providers", providers));
        Wire.atLeast("task_count", taskCount, 0);
        Wire.atLeast("chunk_count", chunkCount, 0);
        Wire.atLeast("task_timeout_ms", taskTimeoutMs, 1L);
        Wire.atLeast("max_attempts", maxAttempts, 1);
        discovery = List.copyOf(Wire.required("discovery", discovery));
        resultsStart = Map.copyOf(Wire.required("results_start", resultsStart));
        deadLettersStart = Map.copyOf(Wire.required("dead_letters_start", deadLettersStart));
        tasksStart = Map.copyOf(Wire.required("tasks_start", tasksStart));
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
    }
}
