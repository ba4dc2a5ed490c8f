package io.cloudg.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.fleet.protocol.WireTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskOrderTest {
    static PlannedTask task(String account, String region, int part) {
        return task(account, region, part, 0);
    }

    static PlannedTask task(String account, String region, int part, long cost) {
        String record = "aws/" + account + "/" + region;
        return new PlannedTask(record + "#" + part, record, part,
                new WireTarget("aws", account, region, List.of("c" + part), Map.of()), false, cost);
    }

    /** Three accounts x (global + 3 regions), two parts each, in the plan's account-major order. */
    static List<PlannedTask> plan() {
        List<PlannedTask> out = new ArrayList<>();
        for (String a : List.of("a1", "a2", "a3")) {
            for (String r : List.of("global", "r1", "r2", "r3")) {
                out.add(task(a, r, 0));
                out.add(task(a, r, 1));
            }
        }
        return out;
    }

    @Test
    void everyTaskOnceAndConsecutiveTasksInDifferentAccounts() {
        List<PlannedTask> plan = plan();
        List<PlannedTask> order = TaskOrder.interleave(plan);
        assertThat(order).containsExactlyInAnyOrderElementsOf(plan);
        for (int i = 1; i < order.size(); i++) {
            assertThat(order.get(i).target().accountId()).as("task %d", i).isNotEqualTo(order.get(i - 1).target().accountId());
        }
    }

    @Test
    void theFirstRoundStartsEachAccountInADifferentRegion() {
        List<PlannedTask> order = TaskOrder.interleave(plan());
        assertThat(order.subList(0, 3)).extracting(t -> t.target().region()).doesNotHaveDuplicates();
    }

    @Test
    void partsOfOneAccountRegionComeInSuccessiveRoundsNotBackToBack() {
        List<PlannedTask> order = TaskOrder.interleave(plan());
        List<String> firstRoundRecords = order.subList(0, 12).stream().map(PlannedTask::record).toList();
        assertThat(firstRoundRecords).doesNotHaveDuplicates();
        for (PlannedTask t : order.subList(0, 12)) {
            assertThat(t.part()).isZero();
        }
    }

    @Test
    void oneAccountAloneIsSpreadOverItsRegions() {
        List<PlannedTask> plan = new ArrayList<>();
        for (String r : List.of("r1", "r2")) {
            plan.add(task("a1", r, 0));
            plan.add(task("a1", r, 1));
        }
        assertThat(TaskOrder.interleave(plan)).extracting(PlannedTask::taskId)
                .containsExactly("aws/a1/r1#0", "aws/a1/r2#0", "aws/a1/r1#1", "aws/a1/r2#1");
    }

    /** The fleet estate of BENCHMARKS.md's quota-bound case: 4 accounts x 2 regions, an AMI fan-out in each. */
    static List<PlannedTask> fanOuts() {
        List<PlannedTask> out = new ArrayList<>();
        for (String a : List.of("a1", "a2", "a3", "a4")) {
            for (String r : List.of("r1", "r2")) {
                for (int part = 0; part < 6; part++) {
                    out.add(task(a, r, part, part == 1 ? 404 + a.charAt(1) : 12 + part));
                }
            }
        }
        return out;
    }

    @Test
    void theHeaviestTasksComeFirstAndEqualSizesStayInterleaved() {
        List<PlannedTask> plan = fanOuts();
        List<PlannedTask> order = TaskOrder.bySize(plan);
        assertThat(order).containsExactlyInAnyOrderElementsOf(plan);
        assertThat(order.subList(0, 8)).allMatch(t -> t.cost() > 400).extracting(PlannedTask::record).doesNotHaveDuplicates();
        for (int i = 1; i < order.size(); i++) {
            assertThat(TaskOrder.sizeClass(order.get(i).cost())).as("task %d", i)
                    .isLessThanOrEqualTo(TaskOrder.sizeClass(order.get(i - 1).cost()));
        }
        for (int i = 9; i < order.size(); i++) {
            if (TaskOrder.sizeClass(order.get(i).cost()) == TaskOrder.sizeClass(order.get(i - 1).cost())) {
                assertThat(order.get(i).target().accountId()).as("task %d", i)
                        .isNotEqualTo(order.get(i - 1).target().accountId());
            }
        }
        assertThat(TaskOrder.bySize(plan())).as("tasks of unknown size: the interleaved order")
                .containsExactlyElementsOf(TaskOrder.interleave(plan()));
    }

    @Test
    void theHeavyTasksAreSpreadOverTheWorkersAndLeadTheirPartitions() {
        List<PlannedTask> order = TaskOrder.bySize(fanOuts());
        long[] costs = order.stream().mapToLong(PlannedTask::cost).toArray();
        // the assignment Kafka made in the measured run: 16 partitions, 4 each, not in blocks
        Map<String, List<Integer>> workers = Map.of("w1", List.of(0, 3, 6, 9), "w2", List.of(1, 4, 7, 10),
                "w3", List.of(12, 13, 14, 15), "w4", List.of(2, 5, 8, 11));
        String[] accounts = order.stream().map(t -> TaskPlacement.affinity(t.target())).toArray(String[]::new);
        int[] placed = TaskPlacement.place(costs, accounts, 16, workers);
        Map<String, Integer> heavyPerWorker = new java.util.TreeMap<>();
        Map<String, java.util.Set<String>> heavyWorkersOfAccount = new java.util.TreeMap<>();
        Map<Integer, List<Long>> byPartition = new java.util.TreeMap<>();
        for (int i = 0; i < order.size(); i++) {
            int p = placed[i];
            String w = workers.entrySet().stream().filter(e -> e.getValue().contains(p)).findFirst().orElseThrow().getKey();
            if (costs[i] > 400) {
                heavyPerWorker.merge(w, 1, Integer::sum);
                heavyWorkersOfAccount.computeIfAbsent(accounts[i], k -> new java.util.TreeSet<>()).add(w);
            }
            byPartition.computeIfAbsent(p, k -> new ArrayList<>()).add(costs[i]);
        }
        assertThat(heavyPerWorker).as("two fan-outs per worker, on two of its partitions")
                .containsExactlyInAnyOrderEntriesOf(Map.of("w1", 2, "w2", 2, "w3", 2, "w4", 2));
        byPartition.values().forEach(costsOfOne -> assertThat(costsOfOne).as("a partition's tasks, in topic order")
                .isSortedAccordingTo(java.util.Comparator.comparingInt(TaskOrder::sizeClass).reversed()));
        assertThat(byPartition.values().stream().filter(c -> c.get(0) > 400).count()).isEqualTo(8);
        assertThat(heavyWorkersOfAccount.values()).as("an account's two fan-outs on one worker").allMatch(ws -> ws.size() == 1);

        long[] load = new long[4];
        List<String> ids = List.of("w1", "w2", "w3", "w4");
        for (int i = 0; i < order.size(); i++) {
            int p = placed[i];
            for (int w = 0; w < 4; w++) {
                if (workers.get(ids.get(w)).contains(p)) {
                    load[w] += costs[i];
                }
            }
        }
        long max = java.util.Arrays.stream(load).max().orElseThrow();
        long min = java.util.Arrays.stream(load).min().orElseThrow();
        assertThat(max - min).as("expected calls per worker: %s", java.util.Arrays.toString(load)).isLessThan(20);
    }

    @Test
    void withoutWorkersEachPartitionIsABinAndUnknownTasksGoRoundRobin() {
        assertThat(TaskPlacement.place(new long[] {0, 0, 0, 0, 0}, 3, Map.of())).containsExactly(0, 1, 2, 0, 1);
        assertThat(TaskPlacement.place(new long[] {900, 500, 400, 10}, 2, Map.of())).containsExactly(0, 1, 1, 0);
        assertThat(TaskPlacement.place(new long[] {5, 5}, 4, Map.of("w1", List.of(3, 99)))).as("only valid partitions")
                .containsExactly(3, 3);
    }
}
