package io.cloudg.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.CloudGConfig;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.JobCost;
import io.cloudg.map.InventoryMapper;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.WorkLeft;
import io.cloudg.sim.config.EstateSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The call model a map's progress line and ETA count with is the map's own: with {@code aws.cloudcontrol_types}
 * naming N types, each Cloud Control sweep is expected to make N ListResources (not one per default type), and
 * the sweep the simulator then sees makes them.
 */
class CloudControlEstimateEndToEndTest {
    static final List<String> TYPES = List.of("AWS::Events::Rule", "AWS::Kinesis::Stream", "AWS::Glue::Database");

    @TempDir
    Path dir;

    @Test
    void aMapWithCustomCloudControlTypesExpectsOneListingPerConfiguredType() {
        try (SimHarness h = new SimHarness(EstateSpec.generated(1, List.of("us-east-1"), Map.of()), null)) {
            CloudGConfig c = h.config(dir.resolve("out")).aws(a -> a.withRegions(List.of("us-east-1"))
                    .withCollectors(List.of("vpc", "cloudcontrol"), List.of()).withSweeps(true, false).toBuilder().cloudControlTypes(TYPES).build())
                    .build();
            AtomicReference<List<CollectionTask>> tasks = new AtomicReference<>();
            AtomicReference<JobCost> cost = new AtomicReference<>();
            new InventoryMapper(c).onTaskDone(new io.cloudg.collect.TaskRunner.Listener() {
                @Override
                public void taskDone(CollectionTask task, io.cloudg.inventory.CoverageRecord r, int d, int n) {
                }

                @Override
                public void planned(List<CollectionTask> t, JobCost jc) {
                    tasks.set(t);
                    cost.set(jc);
                }
            }).mapInventory();

            assertThat(cost.get()).isInstanceOf(CallEstimates.class);
            CallEstimates estimates = (CallEstimates) cost.get();
            // what the progress line does with the planned tasks (cli's Progress)
            WorkLeft work = new WorkLeft(estimates, WorkLeft.Limits.NONE);
            List<String> sweeps = new ArrayList<>();
            long others = 0;
            for (CollectionTask t : tasks.get()) {
                for (CollectorJob j : t.jobs()) {
                    work.planned(t.provider(), t.accountId(), t.region(), j.service());
                    if ("cloudcontrol".equals(j.service())) {
                        sweeps.add(t.accountId());
                        assertThat(estimates.expected(t.provider(), t.accountId(), t.region(), j.service()))
                                .as("one ListResources per configured type").isEqualTo(TYPES.size());
                    } else {
                        others++;
                    }
                }
            }
            assertThat(sweeps).as("the sweep ran in the account's region").isNotEmpty();
            assertThat(work.snapshot(0, 0, true).callsLeft()).as("the other jobs list once each, the sweeps once per type")
                    .isEqualTo(others + (long) sweeps.size() * TYPES.size());
        }
    }
}
