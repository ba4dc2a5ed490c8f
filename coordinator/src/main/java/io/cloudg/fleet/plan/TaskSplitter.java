package io.cloudg.fleet.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Cuts one account x region's jobs into fleet tasks. The cuts keep the jobs' order (so a record's coverage
 * entries read as in an embedded map), put every discovery job in a local segment of its own, and split a
 * large region into groups of at most {@code max} jobs, cutting between services where it can: a region
 * with 40 collectors becomes several tasks that workers run at once, while the collectors of one service
 * (EC2's fourteen) stay together when they fit.
 */
public final class TaskSplitter {
    private final int max;

    public TaskSplitter(int maxJobsPerTask) {
        if (maxJobsPerTask < 1) {
            throw new IllegalArgumentException("maxJobsPerTask must be positive: " + maxJobsPerTask);
        }
        this.max = maxJobsPerTask;
    }

    public List<Segment> split(List<String> jobs, Function<String, String> serviceOf, Predicate<String> local) {
        List<Segment> out = new ArrayList<>();
        List<String> remote = new ArrayList<>();
        for (String job : jobs) {
            if (local.test(job)) {
                pack(remote, serviceOf, out);
                remote.clear();
                out.add(new Segment(List.of(job), true));
            } else {
                remote.add(job);
            }
        }
        pack(remote, serviceOf, out);
        return out;
    }

    /** Packs consecutive same-service runs into groups of at most {@code max}, splitting a run only if it is larger. */
    private void pack(List<String> jobs, Function<String, String> serviceOf, List<Segment> out) {
        if (jobs.isEmpty()) {
            return;
        }
        List<List<String>> runs = new ArrayList<>();
        String last = null;
        for (String job : jobs) {
            String svc = serviceOf.apply(job);
            if (!svc.equals(last) || runs.get(runs.size() - 1).size() == max) {
                runs.add(new ArrayList<>());
                last = svc;
            }
            runs.get(runs.size() - 1).add(job);
        }
        List<String> group = new ArrayList<>();
        for (List<String> run : runs) {
            if (!group.isEmpty() && group.size() + run.size() > max) {
                out.add(new Segment(group, false));
                group = new ArrayList<>();
            }
            group.addAll(run);
        }
        out.add(new Segment(group, false));
    }
}
