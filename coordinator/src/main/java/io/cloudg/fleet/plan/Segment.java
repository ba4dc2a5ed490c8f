package io.cloudg.fleet.plan;

import java.util.List;

/** A contiguous run of a task's jobs that travels as one fleet task; {@code local}: run by the coordinator. */
public record Segment(List<String> jobs, boolean local) {
    public Segment {
        jobs = List.copyOf(jobs);
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("a segment holds at least one job");
        }
    }
}
