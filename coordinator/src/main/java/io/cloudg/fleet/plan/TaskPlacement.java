package io.cloudg.fleet.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which partition of the tasks topic each task goes to, so that the heavy tasks are spread over the
 * workers rather than left to where partition numbers fall: tasks come heaviest first
 * ({@link TaskOrder#bySize}), each goes to the worker with the fewest expected calls so far and, within it,
 * to its partition with the fewest (longest-processing-time-first list scheduling). The workers are the
 * group's members and the partitions each holds ({@code io.cloudg.fleet.coordinator.GroupView}); with no
 * member known yet each partition counts as a worker of its own. A task of unknown cost counts one call,
 * so unknown tasks are dealt round-robin. Pure: the same inputs give the same placement.
 */
public final class TaskPlacement {
    private TaskPlacement() {
    }

    /**
     * The partition of each task, in the order given.
     *
     * @param costs the tasks' expected calls, heaviest first
     * @param partitions the tasks topic's partition count
     * @param assignments each worker's partitions (may be empty, or cover only part of the topic)
     */
    public static int[] place(long[] costs, int partitions, Map<String, List<Integer>> assignments) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, but was " + partitions);
        }
        List<List<Integer>> workers = new ArrayList<>();
        for (List<Integer> parts : new java.util.TreeMap<>(assignments).values()) {
            List<Integer> valid = parts.stream().filter(p -> p >= 0 && p < partitions).distinct().sorted().toList();
            if (!valid.isEmpty()) {
                workers.add(valid);
            }
        }
        if (workers.isEmpty()) {
            for (int p = 0; p < partitions; p++) {
                workers.add(List.of(p));
            }
        }
        long[] workerLoad = new long[workers.size()];
        long[] partitionLoad = new long[partitions];
        // least-loaded worker first; ties to the lower index, so that equal tasks go round-robin
        TreeSet<Integer> byLoad = new TreeSet<>((a, b) -> workerLoad[a] != workerLoad[b]
                ? Long.compare(workerLoad[a], workerLoad[b]) : Integer.compare(a, b));
        for (int w = 0; w < workers.size(); w++) {
            byLoad.add(w);
        }
        int[] out = new int[costs.length];
        for (int i = 0; i < costs.length; i++) {
            long cost = Math.max(1, costs[i]);
            int w = byLoad.pollFirst();
            int best = -1;
            for (int p : workers.get(w)) {
                if (best < 0 || partitionLoad[p] < partitionLoad[best]) {
                    best = p;
                }
            }
            out[i] = best;
            partitionLoad[best] += cost;
            workerLoad[w] += cost;
            byLoad.add(w);
        }
        return out;
    }
}
