package io.cloudg.fleet.plan;

import io.cloudg.fleet.protocol.WireTarget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which partition of the tasks topic each task goes to, so that the heavy tasks are spread over the
 * workers rather than left to where partition numbers fall, and so that an account's tasks stay on one
 * worker as far as that costs no balance.
 *
 * <p>Tasks come heaviest first ({@link TaskOrder#bySize}). Each goes to a worker, then to that worker's
 * partition with the fewest expected calls so far:
 * <ul>
 *   <li>to its account's worker (the worker its account's earlier tasks went to) if that worker's expected
 *       calls stay within the fair share (the run's expected calls over the workers, rounded up);</li>
 *   <li>otherwise to the worker with the fewest expected calls so far (longest-processing-time-first list
 *       scheduling), which becomes the account's worker.</li>
 * </ul>
 * A worker assumes the role into a member account once and keeps its credentials: with the account's tasks
 * on one worker a run assumes about one role per account, where spreading them assumed one per worker that
 * ran any of them (1,000 accounts in 17 regions: up to 18,000 calls on the management account's STS quota
 * instead of 1,000). Balance is as list scheduling's: no worker ends above the fair share plus its
 * heaviest task, since a task goes elsewhere than the least-loaded worker only when it fits in the share.
 *
 * <p>The workers are the group's members and the partitions each holds
 * ({@code io.cloudg.fleet.coordinator.GroupView}); with no member known yet each partition counts as a
 * worker of its own (so an account's tasks share a partition, and whoever holds it). A task of unknown cost
 * counts one call. Pure: the same inputs give the same placement.
 */
public final class TaskPlacement {
    private TaskPlacement() {
    }

    /** The key tasks are kept together by: the provider and the account (subscription, project) they map. */
    public static String affinity(WireTarget target) {
        return target.provider() + "/" + target.accountId();
    }

    /** {@link #place(long[], String[], int, Map)} with no two tasks of one account: balance alone. */
    public static int[] place(long[] costs, int partitions, Map<String, List<Integer>> assignments) {
        return place(costs, null, partitions, assignments);
    }

    /**
     * The partition of each task, in the order given.
     *
     * @param costs the tasks' expected calls, heaviest first
     * @param accounts each task's {@link #affinity} key (null for a task kept with none), or null for none
     * @param partitions the tasks topic's partition count
     * @param assignments each worker's partitions (may be empty, or cover only part of the topic)
     */
    public static int[] place(long[] costs, String[] accounts, int partitions, Map<String, List<Integer>> assignments) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, but was " + partitions);
        }
        if (accounts != null && accounts.length != costs.length) {
            throw new IllegalArgumentException("accounts must have one key per task (" + costs.length
                    + "), but had " + accounts.length);
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
        long total = 0;
        for (long c : costs) {
            total += Math.max(1, c);
        }
        long share = (total + workers.size() - 1) / workers.size();
        long[] workerLoad = new long[workers.size()];
        long[] partitionLoad = new long[partitions];
        // least-loaded worker first; ties to the lower index, so that equal tasks go round-robin
        TreeSet<Integer> byLoad = new TreeSet<>((a, b) -> workerLoad[a] != workerLoad[b]
                ? Long.compare(workerLoad[a], workerLoad[b]) : Integer.compare(a, b));
        for (int w = 0; w < workers.size(); w++) {
            byLoad.add(w);
        }
        Map<String, Integer> home = new HashMap<>();
        int[] out = new int[costs.length];
        for (int i = 0; i < costs.length; i++) {
            long cost = Math.max(1, costs[i]);
            String account = accounts == null ? null : accounts[i];
            Integer h = account == null ? null : home.get(account);
            int w = h != null && workerLoad[h] + cost <= share ? h : byLoad.first();
            if (account != null) {
                home.put(account, w);
            }
            byLoad.remove(w);
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
