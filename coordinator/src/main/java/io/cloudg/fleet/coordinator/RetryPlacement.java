package io.cloudg.fleet.coordinator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a retry goes: a partition held by a worker other than the one that gave the task up, spread
 * round-robin over the other workers' partitions; null (any partition) when no other worker holds one.
 */
public final class RetryPlacement {
    private RetryPlacement() {
    }

    public static Integer choose(Map<String, List<Integer>> assignments, String avoidWorker, int counter) {
        List<Integer> candidates = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : assignments.entrySet()) {
            if (!e.getKey().equals(avoidWorker)) {
                candidates.addAll(e.getValue());
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        candidates.sort(Integer::compare);
        return candidates.get(Math.floorMod(counter, candidates.size()));
    }
}
