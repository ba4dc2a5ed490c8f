package io.cloudg.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.inventory.Asset;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.ThrottlingStats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskRunnerOrderTest {
    static final List<String> STARTED = Collections.synchronizedList(new ArrayList<>());

    static CollectionTask task(String account, String region, String... jobs) {
        List<CollectorJob> list = new ArrayList<>();
        for (String j : jobs) {
            String name = account + "/" + region + "/" + j;
            list.add(new CollectorJob(j, sink -> STARTED.add(name)));
        }
        return new CollectionTask("aws", account, region, list);
    }

    static List<String> names(List<CollectionTask> tasks, long[] order) {
        List<String> out = new ArrayList<>();
        for (long k : order) {
            CollectionTask t = tasks.get((int) (k >>> 32));
            out.add(t.accountId() + "/" + t.region() + "/" + t.jobs().get((int) k).service());
        }
        return out;
    }

    @Test
    void withoutCostsJobsAreInterleavedOverTasks() {
        List<CollectionTask> tasks = List.of(task("a1", "r1", "vpc", "subnets"), task("a2", "r1", "vpc", "subnets", "amis"));
        assertThat(names(tasks, TaskRunner.order(tasks, JobCost.NONE)))
                .containsExactly("a1/r1/vpc", "a2/r1/vpc", "a1/r1/subnets", "a2/r1/subnets", "a2/r1/amis");
    }

    @Test
    void theHeaviestJobsStartFirstAndEqualsKeepTheInterleavedOrder() {
        List<CollectionTask> tasks = List.of(task("a1", "r1", "vpc", "amis", "subnets"),
                task("a2", "r1", "vpc", "subnets", "amis"), task("a3", "r1", "vpc", "snapshots"));
        Map<String, Long> costs = Map.of("a1/amis", 401L, "a2/amis", 380L, "a3/snapshots", 60L);
        JobCost cost = (t, j) -> costs.getOrDefault(t.accountId() + "/" + j.service(), 1L);
        assertThat(names(tasks, TaskRunner.order(tasks, cost))).containsExactly(
                "a1/r1/amis", "a2/r1/amis", "a3/r1/snapshots",
                "a1/r1/vpc", "a2/r1/vpc", "a3/r1/vpc", "a2/r1/subnets", "a1/r1/subnets");
    }

    @Test
    void theRunnerStartsJobsInThatOrderAndStillWritesRecordsInTaskOrder() throws Exception {
        STARTED.clear();
        List<CollectionTask> tasks = List.of(task("a1", "r1", "vpc", "subnets"), task("a2", "r1", "vpc", "amis"));
        JobCost cost = (t, j) -> j.service().equals("amis") ? 400 : 1;
        List<String> jobsDone = Collections.synchronizedList(new ArrayList<>());
        TaskRunner.Listener listener = new TaskRunner.Listener() {
            @Override
            public void taskDone(CollectionTask task, CoverageRecord record, int done, int total) {
            }

            @Override
            public void jobDone(CollectionTask task, CollectorJob job, io.cloudg.inventory.ServiceCoverage entry) {
                jobsDone.add(task.accountId() + "/" + job.service());
            }
        };
        List<Asset> assets = Collections.synchronizedList(new ArrayList<>());
        try (Governor g = Governor.builder().build()) {
            List<CoverageRecord> records = new TaskRunner(1, Coverage.of(g), new ThrottlingStats(), assets::add, listener,
                    cost).run(tasks);
            assertThat(records).extracting(CoverageRecord::accountId).containsExactly("a1", "a2");
            assertThat(records.get(1).services()).extracting(s -> s.service()).containsExactly("vpc", "amis");
        }
        assertThat(STARTED).containsExactly("a2/r1/amis", "a1/r1/vpc", "a2/r1/vpc", "a1/r1/subnets");
        assertThat(jobsDone).containsExactly("a2/amis", "a1/vpc", "a2/vpc", "a1/subnets");
    }
}
