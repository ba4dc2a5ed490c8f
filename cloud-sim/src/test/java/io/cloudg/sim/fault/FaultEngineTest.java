package io.cloudg.sim.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.sim.config.FaultKind;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.core.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FaultEngineTest {
    static final CallScope SUBNETS = new CallScope(Provider.AWS, "111111111111", "us-east-1", "ec2", "DescribeSubnets");
    static final CallScope VPCS = new CallScope(Provider.AWS, "111111111111", "us-east-1", "ec2", "DescribeVpcs");

    @Test
    void countFiresOnTheFirstNMatchingCallsOnly() {
        FaultEngine e = new FaultEngine(FaultSpec.fromYaml(
            "faults: [{match: {operation: DescribeSubnets}, error: transient, count: 2}]"), new ManualClock(), 1);
        assertThat(e.decide(VPCS)).isNull();
        assertThat(e.decide(SUBNETS).error()).isEqualTo(FaultKind.TRANSIENT);
        assertThat(e.decide(VPCS)).isNull();
        assertThat(e.decide(SUBNETS)).isNotNull();
        assertThat(e.decide(SUBNETS)).isNull();
        e.set(e.current());
        assertThat(e.decide(SUBNETS)).as("replacing the rules restarts counts").isNotNull();
    }

    @Test
    void probabilityIsSeededAndRoughlyRight() {
        FaultSpec spec = FaultSpec.fromYaml("faults: [{error: throttle, probability: 0.3}]");
        List<Boolean> a = draws(new FaultEngine(spec, new ManualClock(), 5));
        List<Boolean> b = draws(new FaultEngine(spec, new ManualClock(), 5));
        List<Boolean> c = draws(new FaultEngine(spec, new ManualClock(), 6));
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        long fired = a.stream().filter(x -> x).count();
        assertThat(fired).isBetween(2_700L, 3_300L);
    }

    @Test
    void timeWindowsFollowTheInjectedClock() {
        ManualClock clock = new ManualClock();
        FaultEngine e = new FaultEngine(FaultSpec.fromYaml(
            "faults: [{error: access_denied, window: {from: 10s, until: 20s}}]"), clock, 1);
        assertThat(e.decide(VPCS)).isNull();
        clock.advance(Duration.ofSeconds(10));
        assertThat(e.decide(VPCS).error()).isEqualTo(FaultKind.ACCESS_DENIED);
        clock.advance(Duration.ofMillis(9_999));
        assertThat(e.decide(VPCS)).isNotNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(e.decide(VPCS)).isNull();
    }

    @Test
    void theFirstRuleThatFiresWins() {
        FaultEngine e = new FaultEngine(FaultSpec.fromYaml("""
            faults:
              - {match: {service: ec2}, error: reset, count: 1}
              - {match: {service: ec2}, error: slow, delay: 1s}
            """), new ManualClock(), 1);
        assertThat(e.decide(VPCS).error()).isEqualTo(FaultKind.RESET);
        assertThat(e.decide(VPCS).error()).isEqualTo(FaultKind.SLOW);
    }

    private static List<Boolean> draws(FaultEngine e) {
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            out.add(e.decide(VPCS) != null);
        }
        return out;
    }
}
