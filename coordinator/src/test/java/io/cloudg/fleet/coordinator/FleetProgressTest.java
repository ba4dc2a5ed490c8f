package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.time.ManualTimeSource;
import io.cloudg.run.CallEstimates;
import io.cloudg.run.WorkLeft;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetProgressTest {
    static FleetProgress.Snapshot snap(int done, int total, int busy, long assets, long calls, int retries, long dups,
                                       int failed, WorkLeft.Snapshot work) {
        return new FleetProgress.Snapshot(done, total, busy, assets, calls, retries, dups, failed, work);
    }

    @Test
    void aLinePerIntervalWithJobsCallsLeftAndTheRateFromTheClock() {
        ManualTimeSource clock = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        List<String> lines = new ArrayList<>();
        FleetProgress p = new FleetProgress(clock, Duration.ofSeconds(10), lines::add);
        p.tick(snap(0, 8, 0, 0, 0, 0, 0, 0, new WorkLeft.Snapshot(0, 40, 0, 800, 0)));
        clock.advance(Duration.ofSeconds(5));
        p.tick(snap(1, 8, 2, 10, 100, 0, 0, 0, new WorkLeft.Snapshot(5, 40, 100, 700, 0)));
        assertThat(lines).isEmpty();
        clock.advance(Duration.ofSeconds(5));
        p.tick(snap(2, 8, 3, 40, 400, 1, 1, 0, new WorkLeft.Snapshot(10, 40, 400, 400, 0)));
        assertThat(lines).as("the share is of the jobs, as counted before it").containsExactly(
                "[10/40 jobs (25%); 2/8 tasks] 3 workers busy, 40.0 calls/s, 40 assets, 1 retried, 1 duplicate dropped, ETA 0:10");
        clock.advance(Duration.ofSeconds(1));
        p.last(snap(8, 8, 0, 90, 430, 1, 2, 1, new WorkLeft.Snapshot(40, 40, 430, 0, 0)));
        assertThat(lines).hasSize(2).last().asString().startsWith("[40/40 jobs (100%); 8/8 tasks] 0 workers busy, 1 failed, ")
                .endsWith(" 90 assets, 1 retried, 2 duplicates dropped, ETA 0:00");
        assertThat(lines).as("the terminal's status line takes them, not the log").allMatch(FleetProgress::isProgressLine);
        assertThat(FleetProgress.isProgressLine("run r-1: 8 task(s) planned")).isFalse();
    }

    @Test
    void theQuotasDrainTimeBoundsTheEtaAndNoWorkerMeansNoEta() {
        ManualTimeSource clock = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        List<String> lines = new ArrayList<>();
        FleetProgress p = new FleetProgress(clock, Duration.ofSeconds(10), lines::add);
        p.tick(snap(5, 10, 0, 500, 9_000, 0, 0, 0, new WorkLeft.Snapshot(50, 100, 9_000, 1_000, 0)));
        clock.advance(Duration.ofSeconds(10));
        p.tick(snap(5, 10, 0, 500, 9_000, 0, 0, 0, new WorkLeft.Snapshot(50, 100, 9_000, 1_000, 0)));
        assertThat(lines).singleElement().asString().contains("0.0 calls/s").endsWith("ETA waiting for workers");
        clock.advance(Duration.ofSeconds(10));
        p.tick(snap(6, 10, 2, 600, 9_200, 0, 0, 0, new WorkLeft.Snapshot(60, 100, 9_200, 800, 75)));
        assertThat(lines.get(1)).as("800 calls at 10/s would be 80 s, but a bucket needs 75 s more: 80 s")
                .contains("10.0 calls/s").endsWith("ETA 1:20");
        clock.advance(Duration.ofSeconds(10));
        p.tick(snap(6, 10, 2, 600, 9_400, 0, 0, 0, new WorkLeft.Snapshot(60, 100, 9_400, 100, 95)));
        assertThat(lines.get(2)).as("100 calls at 10/s is 10 s, but the quota needs 95 s").endsWith("ETA 1:35");
    }

    /**
     * A fleet run as the coordinator hears of it: 200 account x regions of 4 jobs, cut into tasks of 2 jobs
     * that workers end one after another, all of one size. The jobs counter and the share move on every
     * line, and the ETA, from the calls left, is the time left.
     */
    @Test
    void theCounterMovesOnEveryLineAndTheEtaIsTheTimeLeft() {
        ManualTimeSource clock = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        List<String> lines = new ArrayList<>();
        FleetProgress p = new FleetProgress(clock, Duration.ofSeconds(10), lines::add);
        WorkLeft work = new WorkLeft(CallEstimates.NONE, WorkLeft.Limits.NONE);
        for (int r = 0; r < 200; r++) {
            for (String c : List.of("vpc", "subnets", "amis", "volumes")) {
                work.planned("gcp", "a" + r, "r1", c);
            }
        }
        long calls = 0;
        int tasks = 400;
        for (int t = 0; t < tasks; t++) { // a task ends every 0.5 s: 400 tasks, 200 s
            clock.advance(Duration.ofMillis(500));
            String account = "a" + (t / 2);
            for (String c : t % 2 == 0 ? List.of("vpc", "subnets") : List.of("amis", "volumes")) {
                work.started("gcp", account, "r1", c, clock.epochMillis());
                work.finished("gcp", account, "r1", c, 0);
                calls++;
            }
            p.tick(snap(t + 1, tasks, 4, 0, calls, 0, 0, 0, work.snapshot(clock.epochMillis(), calls, false)));
        }
        assertThat(lines).hasSize(20);
        int lastJobs = -1;
        for (int i = 0; i < lines.size() - 1; i++) {
            String line = lines.get(i);
            int jobs = Integer.parseInt(line.substring(1, line.indexOf('/')));
            assertThat(jobs).as(line).isGreaterThan(lastJobs);
            lastJobs = jobs;
            double left = 200 - 10.0 * (i + 1);
            String[] eta = line.substring(line.lastIndexOf("ETA ") + 4).split(":");
            double said = Integer.parseInt(eta[0]) * 60 + Integer.parseInt(eta[1]);
            assertThat(said).as(line).isBetween(left - 2, left + 2);
        }
    }
}
