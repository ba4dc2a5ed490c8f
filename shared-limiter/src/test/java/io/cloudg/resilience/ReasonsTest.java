package io.cloudg.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.spi.ErrorClass;
import org.junit.jupiter.api.Test;

/** The wording readers rely on: the prefix says whether throttling is among the causes. */
class ReasonsTest {
    @Test
    void aReasonStartsWithItsKindOnce() {
        assertThat(Reasons.gaveUp(ErrorClass.THROTTLED, "DescribeSubnets", "retries exhausted", "RequestLimitExceeded"))
                .isEqualTo("throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded");
        assertThat(Reasons.gaveUp(ErrorClass.TRANSIENT, "ListRoles", "deadline", "503")).startsWith(Reasons.TRANSIENT);
        assertThat(Reasons.prefixed(ErrorClass.THROTTLED, "throttled: 1 call(s) gave up")).isEqualTo("throttled: 1 call(s) gave up");
        assertThat(Reasons.prefixed(ErrorClass.THROTTLED, "SlowDown")).isEqualTo("throttled: SlowDown");
        assertThat(Reasons.circuitOpen("circuit open for 60 s")).isEqualTo("throttled: circuit open for 60 s");
        assertThat(Reasons.throttled("throttled: x")).isTrue();
        assertThat(Reasons.throttled("transient: x")).isFalse();
        assertThat(Reasons.throttled(null)).isFalse();
    }

    @Test
    void whatATaskLostNamesBothKindsOfLoss() {
        assertThat(Reasons.lost(true, 1, "a", 2, "b"))
                .isEqualTo("throttled: 1 call(s) gave up after retries (a); 2 call(s) skipped by open circuit (b)");
        assertThat(Reasons.lost(false, 3, "c", 0, null)).isEqualTo("transient: 3 call(s) gave up after retries (c)");
        assertThat(Reasons.lost(true, 0, null, 1, "d")).isEqualTo("throttled: 1 call(s) skipped by open circuit (d)");
    }
}
