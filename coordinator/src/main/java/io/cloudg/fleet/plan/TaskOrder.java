package io.cloudg.fleet.plan;

import io.cloudg.fleet.protocol.PlannedTask;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order tasks are published in, so that the fleet uses many quota buckets at once instead of one
 * account at a time. Quotas are per account x region x service: tasks are dealt round-robin over
 * accounts, each account's own tasks rotated so that accounts start in different regions; the parts of
 * one account x region come in successive rounds. Consecutive tasks therefore differ in account and, as
 * far as the estate allows, in region.
 */
public final class TaskOrder {
    private TaskOrder() {
    }

    public static List<PlannedTask> interleave(List<PlannedTask> tasks) {
        Map<String, Map<String, Deque<PlannedTask>>> byAccount = new LinkedHashMap<>();
        for (PlannedTask t : tasks) {
            String account = t.target().provider() + "/" + t.target().accountId();
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
