package io.cloudg.fleet.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetProgressTest {
    @Test
    void etaIsTheRemainingTasksAtTheRateSoFar() {
        assertThat(FleetProgress.eta(0, 10, 30)).isEqualTo("--:--");
        assertThat(FleetProgress.eta(5, 10, 30)).isEqualTo("0:30");
        assertThat(FleetProgress.eta(1, 500, 30)).isEqualTo("4:09:30");
        assertThat(FleetProgress.eta(10, 10, 30)).isEqualTo("0:00");
    }

    @Test
    void aLinePerIntervalWithRatesFromTheClock() {
        ManualTimeSource clock = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        List<String> lines = new ArrayList<>();
        FleetProgress p = new FleetProgress(clock, Duration.ofSeconds(10), lines::add);
        p.tick(new FleetProgress.Snapshot(0, 8, 0, 0, 0, 0, 0, 0));
        clock.advance(Duration.ofSeconds(5));
        p.tick(new FleetProgress.Snapshot(1, 8, 2, 10, 100, 0, 0, 0));
        assertThat(lines).isEmpty();
        clock.advance(Duration.ofSeconds(5));
        p.tick(new FleetProgress.Snapshot(2, 8, 3, 40, 400, 1, 1, 0));
        assertThat(lines).containsExactly(
                "[2/8 tasks] 3 workers busy, 40 assets, 40.0 calls/s, 1 retried, 1 duplicate dropped, ETA 0:30");
        clock.advance(Duration.ofSeconds(1));
        p.last(new FleetProgress.Snapshot(8, 8, 0, 90, 430, 1, 2, 1));
        assertThat(lines).hasSize(2).last().asString().startsWith("[8/8 tasks] 0 workers busy, 90 assets,")
                .endsWith("2 duplicates dropped, 1 failed, ETA 0:00");
    }

    @Test
    void aResumedRunCountsOnlyWhatThisCoordinatorSawAndNoWorkerMeansNoEta() {
        ManualTimeSource clock = new ManualTimeSource(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        List<String> lines = new ArrayList<>();
        FleetProgress p = new FleetProgress(clock, Duration.ofSeconds(10), lines::add);
        p.tick(new FleetProgress.Snapshot(5, 10, 0, 500, 9_000, 0, 0, 0));
        clock.advance(Duration.ofSeconds(10));
        p.tick(new FleetProgress.Snapshot(5, 10, 0, 500, 9_000, 0, 0, 0));
        assertThat(lines).singleElement().asString().contains("0.0 calls/s").endsWith("ETA waiting for workers");
        clock.advance(Duration.ofSeconds(10));
        p.tick(new FleetProgress.Snapshot(6, 10, 2, 600, 9_100, 0, 0, 0));
        assertThat(lines.get(1)).as("one task in 20 s since this coordinator took over: 4 left, 80 s")
                .contains("10.0 calls/s").endsWith("ETA 1:20");
    }
}
