package io.cloudg.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.fleet.protocol.PlannedTask;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskPlacementTest {
    /** 4 workers holding 16 partitions, not in blocks (as Kafka's assignor hands them out). */
    static final Map<String, List<Integer>> FOUR = Map.of("w1", List.of(0, 4, 8, 12), "w2", List.of(1, 5, 9, 13),
            "w3", List.of(2, 6, 10, 14), "w4", List.of(3, 7, 11, 15));

    /** {@code accounts} x (global + {@code regions}) tasks of unknown cost, in the order they are published. */
    static List<PlannedTask> organization(int accounts, int regions) {
        List<PlannedTask> out = new ArrayList<>();
        for (int a = 0; a < accounts; a++) {
            String account = String.format("%012d", a);
            out.add(TaskOrderTest.task(account, "global", 0));
            for (int r = 0; r < regions; r++) {
                out.add(TaskOrderTest.task(account, "region-" + r, 0));
            }
        }
        return TaskOrder.bySize(out);
    }

    static String[] accounts(List<PlannedTask> order) {
        return order.stream().map(t -> TaskPlacement.affinity(t.target())).toArray(String[]::new);
    }

    static String workerOf(Map<String, List<Integer>> workers, int partition) {
        return workers.entrySet().stream().filter(e -> e.getValue().contains(partition)).findFirst().orElseThrow().getKey();
    }

    @Test
    void anAccountsTasksGoToOneWorkerAndTheWorkersStayEven() {
        // 203 accounts: dealt round-robin, each round of one task per account starts a worker further on
        List<PlannedTask> order = organization(203, 4);
        long[] costs = order.stream().mapToLong(PlannedTask::cost).toArray();
        String[] accounts = accounts(order);
        int[] placed = TaskPlacement.place(costs, accounts, 16, FOUR);

        Map<String, Set<String>> workersOfAccount = new HashMap<>();
        Map<String, Integer> tasksOfWorker = new HashMap<>();
        for (int i = 0; i < placed.length; i++) {
            String w = workerOf(FOUR, placed[i]);
            workersOfAccount.computeIfAbsent(accounts[i], k -> new HashSet<>()).add(w);
            tasksOfWorker.merge(w, 1, Integer::sum);
        }
        assertThat(workersOfAccount).hasSize(203);
        assertThat(workersOfAccount.values().stream().filter(ws -> ws.size() > 1).count())
                .as("accounts on more than one worker: those whose last task did not fit their worker's share").isLessThanOrEqualTo(3);
        assertThat(workersOfAccount.values()).allMatch(ws -> ws.size() <= 2);
        assertThat(tasksOfWorker.values()).as("1,015 tasks over 4 workers: a share is 254").allMatch(n -> n >= 253 && n <= 254);

        int[] spread = TaskPlacement.place(costs, 16, FOUR);
        Set<String> pairs = new HashSet<>();
        for (int i = 0; i < spread.length; i++) {
            pairs.add(accounts[i] + "@" + workerOf(FOUR, spread[i]));
        }
        assertThat(pairs).as("without the accounts, balance alone puts each account on several workers")
                .hasSizeGreaterThan(800);
    }

    @Test
    void anAccountHeavierThanItsShareIsSpreadAndNoWorkerEndsAboveTheSharePlusItsHeaviestTask() {
        Random random = new Random(14);
        for (int round = 0; round < 300; round++) {
            int tasks = 1 + random.nextInt(400);
            int groups = 1 + random.nextInt(40);
            int partitions = 1 + random.nextInt(24);
            Map<String, List<Integer>> workers = new HashMap<>();
            int nWorkers = random.nextInt(Math.min(8, partitions) + 1); // 0: no member known yet
            for (int p = 0; p < partitions && nWorkers > 0; p++) {
                workers.computeIfAbsent("w" + (p % nWorkers), k -> new ArrayList<>()).add(p);
            }
            long[] costs = new long[tasks];
            String[] accounts = new String[tasks];
            for (int i = 0; i < tasks; i++) {
                costs[i] = random.nextInt(10) == 0 ? random.nextInt(2_000) : random.nextInt(60);
                accounts[i] = random.nextInt(20) == 0 ? null : "aws/" + random.nextInt(groups);
            }
            Long[] boxed = Arrays.stream(costs).boxed().sorted((a, b) -> Long.compare(b, a)).toArray(Long[]::new);
            costs = Arrays.stream(boxed).mapToLong(Long::longValue).toArray(); // heaviest first, as published

            int[] placed = TaskPlacement.place(costs, accounts, partitions, workers);
            assertThat(TaskPlacement.place(costs, accounts, partitions, workers)).as("pure").containsExactly(placed);

            Map<String, Long> load = new HashMap<>();
            long total = 0;
            long heaviest = 0;
            for (int i = 0; i < tasks; i++) {
                assertThat(placed[i]).isBetween(0, partitions - 1);
                String w = workers.isEmpty() ? "p" + placed[i] : workerOf(workers, placed[i]);
                load.merge(w, Math.max(1, costs[i]), Long::sum);
                total += Math.max(1, costs[i]);
                heaviest = Math.max(heaviest, Math.max(1, costs[i]));
            }
            int bins = workers.isEmpty() ? partitions : workers.size();
            long share = (total + bins - 1) / bins;
            long bound = share + heaviest;
            assertThat(load.values()).as("round %d: loads %s, share %d, heaviest %d", round, load, share, heaviest)
                    .allMatch(l -> l <= bound);
        }
    }

    @Test
    void withNoWorkerKnownAnAccountsTasksShareAPartition() {
        List<PlannedTask> order = organization(12, 3);
        long[] costs = order.stream().mapToLong(PlannedTask::cost).toArray();
        String[] accounts = accounts(order);
        int[] placed = TaskPlacement.place(costs, accounts, 6, Map.of());
        Map<String, Set<Integer>> partitionsOfAccount = new HashMap<>();
        int[] perPartition = new int[6];
        for (int i = 0; i < placed.length; i++) {
            partitionsOfAccount.computeIfAbsent(accounts[i], k -> new HashSet<>()).add(placed[i]);
            perPartition[placed[i]]++;
        }
        assertThat(partitionsOfAccount.values()).allMatch(ps -> ps.size() == 1);
        assertThat(perPartition).containsOnly(8);
    }

    @Test
    void refusesKeysThatDoNotMatchTheTasks() {
        assertThatThrownBy(() -> TaskPlacement.place(new long[] {1, 2}, new String[] {"aws/1"}, 4, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("accounts must have one key per task (2), but had 1");
    }
}
