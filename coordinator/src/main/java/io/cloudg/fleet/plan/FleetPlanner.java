package io.cloudg.fleet.plan;

import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.fleet.protocol.PlannedTask;
import io.cloudg.replan.Replanner;
import io.cloudg.replan.Replanners;
import io.cloudg.fleet.protocol.WireTarget;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.SkippedAccount;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.TaskTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Discovers the estate (each provider's discovery under a ledger feeding the run's throttling counters,
 * as in the embedded mode) and turns its tasks into fleet tasks: one per {@link Segment} of each
 * account x region, with the facts a worker needs to re-plan it and the calls it is expected to make
 * ({@link CallEstimates}: the previous map's sizes), by which {@link TaskOrder} and {@link TaskPlacement}
 * start the heaviest first and spread them over the workers.
 */
public final class FleetPlanner {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.fleet");

    private final TaskSplitter splitter;
    private final CallEstimates estimates;

    public FleetPlanner(int maxJobsPerTask) {
        this(maxJobsPerTask, CallEstimates.NONE);
    }

    public FleetPlanner(int maxJobsPerTask, CallEstimates estimates) {
        this.splitter = new TaskSplitter(maxJobsPerTask);
        this.estimates = estimates;
    }

    @SuppressWarnings("try") // the binding only scopes the ledger to the discovery calls
    public FleetPlan plan(Replanners providers, ThrottlingStats run) {
        List<String> names = new ArrayList<>();
        List<CoverageRecord> discovery = new ArrayList<>();
        List<SkippedAccount> skipped = new ArrayList<>();
        List<PlannedTask> tasks = new ArrayList<>();
        Map<String, CollectionTask> local = new LinkedHashMap<>();
        for (Replanner p : providers.all()) {
            ProviderPlan plan;
            try (TaskLedger.Binding b = TaskLedger.create(p.name() + "/discovery", run).bind()) {
                plan = p.plan();
            }
            names.add(p.name());
            discovery.addAll(plan.discovery());
            skipped.addAll(plan.skipped());
            Map<String, String> facts = p.discoveryFacts();
            providers.useEstate(p.name(), facts); // the coordinator's own calls from now on are the estate's
            int before = tasks.size();
            for (CollectionTask t : plan.tasks()) {
                cut(p, t, facts, tasks, local);
            }
            LOG.info("{}: {} account x region task(s) planned as {} fleet task(s)", p.name(), plan.tasks().size(),
                    tasks.size() - before);
        }
        return new FleetPlan(names, discovery, tasks, local, skipped);
    }

    /** The fleet tasks of one planned task (visible for tests). */
    void cut(Replanner p, CollectionTask t, Map<String, String> facts, List<PlannedTask> out,
             Map<String, CollectionTask> local) {
        List<String> names = t.jobs().stream().map(CollectorJob::service).toList();
        List<Segment> segments = splitter.split(names, p::serviceOf, p::discoveryJob);
        int part = 0;
        for (Segment s : segments) {
            String taskId = t.id() + "#" + part;
            TaskTarget target = new TaskTarget(t.provider(), t.accountId(), t.region(), s.jobs(), facts);
            long cost = 0;
            for (String job : s.jobs()) {
                cost += estimates.rank(t.provider(), t.accountId(), t.region(), job);
            }
            out.add(new PlannedTask(taskId, t.id(), part, WireTarget.of(target), s.local(), cost));
            if (s.local()) {
                List<CollectorJob> jobs = t.jobs().stream().filter(j -> s.jobs().contains(j.service())).toList();
                local.put(taskId, new CollectionTask(t.provider(), t.accountId(), t.region(), jobs));
            }
            part++;
        }
    }
}
