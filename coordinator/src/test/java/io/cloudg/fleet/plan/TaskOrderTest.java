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
        String record = "aws/" + account + "/" + region;
        return new PlannedTask(record + "#" + part, record, part,
                new WireTarget("aws", account, region, List.of("c" + part), Map.of()), false);
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
}
