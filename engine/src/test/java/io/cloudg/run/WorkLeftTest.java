package io.cloudg.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WorkLeftTest {
    static final WorkLeft.Limits EC2 = (p, s, o) -> new WorkLeft.Limit(20, 100);

    static CallEstimates prior(int amis) throws Exception {
        String map = """
                {"coverage": [
                  {"provider": "aws", "account_id": "1", "region": "r1",
                   "services": [{"service": "vpc", "asset_count": 1}, {"service": "amis", "asset_count": %d}]},
                  {"provider": "aws", "account_id": "2", "region": "r1",
                   "services": [{"service": "vpc", "asset_count": 1}, {"service": "amis", "asset_count": 0}]}
                ]}""".formatted(amis);
        return new CallEstimates(PriorRun.parse(new ByteArrayInputStream(map.getBytes(StandardCharsets.UTF_8)), null));
    }

    @Test
    void sizedJobsCountTheirExpectedCallsAndTheQuotaTheirDrainTime() throws Exception {
        WorkLeft w = new WorkLeft(prior(400), EC2);
        for (String a : new String[] {"1", "2"}) {
            w.planned("aws", a, "r1", "vpc");
            w.planned("aws", a, "r1", "amis");
        }
        WorkLeft.Snapshot s = w.snapshot(0, 0, true);
        assertThat(s.jobsTotal()).isEqualTo(4);
        assertThat(s.callsLeft()).as("1 + 404 + 1 + 1").isEqualTo(407);
        assertThat(s.quotaSeconds()).as("(404 - 100) / 20").isCloseTo(15.2, within(1e-9));

        w.started("aws", "1", "r1", "amis", 1_000);
        s = w.snapshot(6_000, 150, true);
        assertThat(s.callsLeft()).as("the running job's 150 calls so far come off").isEqualTo(407 - 150);
        assertThat(s.callsDone()).isEqualTo(150);
        assertThat(s.quotaSeconds()).as("5 s into it").isCloseTo(10.2, within(1e-9));

        w.finished("aws", "1", "r1", "amis", 400);
        s = w.snapshot(17_000, 404, true);
        assertThat(s.quotaSeconds()).isZero();
        assertThat(s.jobsDone()).isEqualTo(1);
        assertThat(s.callsLeft()).isEqualTo(3);
        assertThat(s.fraction()).as("404 of 407, but jobs are left: at most 99%").isEqualTo(0.99);
        assertThat(s.jobsPercent()).as("what the line shows beside 1/4 jobs").isEqualTo(25);
    }

    @Test
    void theJobsPercentIsOfTheJobsAndReaches100OnlyAtTheEnd() {
        assertThat(new WorkLeft.Snapshot(652, 17837, 0, 0, 0).jobsPercent()).isEqualTo(3);
        assertThat(new WorkLeft.Snapshot(17836, 17837, 0, 0, 0).jobsPercent()).isEqualTo(99);
        assertThat(new WorkLeft.Snapshot(17837, 17837, 0, 0, 0).jobsPercent()).isEqualTo(100);
        assertThat(new WorkLeft.Snapshot(0, 0, 0, 0, 0).jobsPercent()).isZero();
    }

    @Test
    void unsizedJobsCountAtTheMeanOfTheirCollectorsEndedJobs() {
        WorkLeft w = new WorkLeft(CallEstimates.NONE, EC2);
        for (int a = 0; a < 10; a++) {
            w.planned("aws", "a" + a, "r1", "amis");
        }
        assertThat(w.snapshot(0, 0, true).callsLeft()).as("nothing learned yet: a listing each").isEqualTo(10);
        w.started("aws", "a0", "r1", "amis", 0);
        w.finished("aws", "a0", "r1", "amis", 300);
        WorkLeft.Snapshot s = w.snapshot(0, 303, true);
        assertThat(s.callsLeft()).as("nine more like the first").isEqualTo(9 * 303);
        assertThat(s.quotaSeconds()).as("each drains a bucket: (303 - 100) / 20").isCloseTo(10.15, within(1e-9));
    }

    @Test
    void aJobGivenUpBeforeItStartedEndsCleanly() {
        WorkLeft w = new WorkLeft(CallEstimates.NONE, WorkLeft.Limits.NONE);
        w.planned("aws", "1", "r1", "vpc");
        w.planned("aws", "2", "r1", "vpc");
        w.finished("aws", "1", "r1", "vpc", 0);
        WorkLeft.Snapshot s = w.snapshot(0, -1, false);
        assertThat(s.jobsDone()).isEqualTo(1);
        assertThat(s.callsLeft()).isEqualTo(1);
        assertThat(s.quotaSeconds()).isZero();
    }

    @Test
    void theEtaIsTheLongerOfCallsAtTheRateAndTheQuotasDrain() {
        assertThat(Eta.seconds(600, 20, 0)).isEqualTo(30);
        assertThat(Eta.seconds(600, 20, 45)).isEqualTo(45);
        assertThat(Eta.seconds(600, 0, 0)).isNaN();
        assertThat(Eta.seconds(600, Double.NaN, 12)).isEqualTo(12);
        assertThat(Eta.seconds(0, 20, 0)).isZero();
        assertThat(Eta.clock(Double.NaN)).isEqualTo("--:--");
        assertThat(Eta.clock(30)).isEqualTo("0:30");
        assertThat(Eta.clock(4 * 3600 + 9 * 60 + 30)).isEqualTo("4:09:30");
    }

    @Test
    void theRateIsTheMeanUntilTauThenAnExponentialMeanOfTheTimeBetweenSamples() {
        RateMeter m = new RateMeter(10);
        assertThat(m.update(0, 0)).isNaN();
        assertThat(m.update(50, 5_000)).isEqualTo(10);
        assertThat(m.update(100, 10_000)).isEqualTo(10);
        double r = m.update(400, 20_000);
        assertThat(r).as("towards 30/s by 1 - e^-1 of the way").isCloseTo(10 + 20 * (1 - Math.exp(-1)), within(1e-9));
        assertThat(m.update(400, 20_000)).as("no time passed: unchanged").isEqualTo(r);
    }
}
