package io.cloudg.fleet.plan;

import io.cloudg.fleet.protocol.PlannedTask;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order tasks are published in: the heaviest first ({@link #bySize}), so that the long, quota-bound
 * tasks (an AMI fan-out: one call per image at EC2's 20 a second) start at once and run beside each other
 * instead of being left for the end; and, among tasks of a size, so that the fleet uses many quota buckets
 * at once instead of one account at a time ({@link #interleave}). Quotas are per account x region x
 * service: tasks are dealt round-robin over accounts, each account's own tasks rotated so that accounts
 * start in different regions; the parts of one account x region come in successive rounds. Consecutive
 * tasks therefore differ in account and, as far as the estate allows, in region.
 */
public final class TaskOrder {
    private TaskOrder() {
    }

    /**
     * Heaviest size class first; within a class, {@link #interleave}d. A size class is half an octave of
     * expected calls ({@code floor(2 log2(cost + 1))}): 400 and 410 calls are alike, 400 and 40 are not, so
     * the interleaving of the many small tasks is kept while the heavy ones lead.
     */
    public static List<PlannedTask> bySize(List<PlannedTask> tasks) {
        List<PlannedTask> out = new ArrayList<>(interleave(tasks));
        out.sort(Comparator.comparingInt((PlannedTask t) -> sizeClass(t.cost())).reversed()); // stable
        return out;
    }

    /** Half-octaves of {@code cost + 1}: 0 for 0 calls, 2 for 1, 4 for 3, 17 for 400. */
    static int sizeClass(long cost) {
        return (int) Math.floor(2 * Math.log(Math.max(0, cost) + 1.0) / Math.log(2));
    }

    public static List<PlannedTask> interleave(List<PlannedTask> tasks) {
        Map<String, Map<String, Deque<PlannedTask>>> byAccount = new LinkedHashMap<>();
        for (PlannedTask t : tasks) {
            String account = TaskPlacement.affinity(t.target());
            byAccount.computeIfAbsent(account, k -> new LinkedHashMap<>())
                    .computeIfAbsent(t.record(), k -> new ArrayDeque<>()).add(t);
        }
        List<Deque<PlannedTask>> queues = new ArrayList<>();
        int a = 0;
        for (Map<String, Deque<PlannedTask>> records : byAccount.values()) {
            List<Deque<PlannedTask>> recs = new ArrayList<>(records.values());
            int n = recs.size();
            List<Deque<PlannedTask>> rotated = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                rotated.add(recs.get((i + a) % n));
            }
            queues.add(accountQueue(rotated));
            a++;
        }
        List<PlannedTask> out = new ArrayList<>(tasks.size());
        boolean any = true;
        while (any) {
            any = false;
            for (Deque<PlannedTask> q : queues) {
                PlannedTask t = q.poll();
                if (t != null) {
                    out.add(t);
                    any = true;
                }
            }
        }
        return out;
    }

    /** One account's tasks: the first part of every record, then the second part of every record... */
    private static Deque<PlannedTask> accountQueue(List<Deque<PlannedTask>> records) {
        Deque<PlannedTask> out = new ArrayDeque<>();
        boolean any = true;
        while (any) {
            any = false;
            for (Deque<PlannedTask> r : records) {
                PlannedTask t = r.poll();
                if (t != null) {
                    out.add(t);
                    any = true;
                }
            }
        }
        return out;
    }
}
