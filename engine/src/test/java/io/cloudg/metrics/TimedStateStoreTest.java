package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.spi.StateStore;
import io.cloudg.resilience.spi.StateStoreUnavailableException;
import io.cloudg.resilience.time.ManualTimeSource;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

/** Each store operation is one timed command, a failed one under {@code outcome="error"}. */
class TimedStateStoreTest {
    @Test
    void roundTripsAreTimedByCommandAndOutcome() {
        ManualTimeSource time = new ManualTimeSource();
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "test", time)) {
            Unreachable shared = new Unreachable(new InMemoryStateStore(time));
            StateStore store = TimedStateStore.wrap(shared, metrics);
            store.slotsInUse(Scope.account("aws", "1"));
            store.retryBudgetRemaining("aws", 10);
            shared.down = true;
            assertThatThrownBy(() -> store.tryTakeRetry("aws", 10)).isInstanceOf(StateStoreUnavailableException.class);
            assertThat(timer(metrics, "slots_in_use", "ok").count()).isEqualTo(1);
            assertThat(timer(metrics, "retry_budget_remaining", "ok").count()).isEqualTo(1);
            assertThat(timer(metrics, "try_take_retry", "error").count()).isEqualTo(1);
            assertThat(timer(metrics, "try_take_retry", "ok").count()).isZero();
            assertThat(store.describe()).isEqualTo(shared.describe());
            assertThat(metrics.scrape()).contains(
                    "cloudg_redis_command_seconds_count{command=\"try_take_retry\",outcome=\"error\",store=\"governor\"} 1");
        }
    }

    static Timer timer(CloudgMetrics m, String command, String outcome) {
        return m.registry().find("cloudg.redis.command").tags("command", command, "outcome", outcome).timer();
    }
}
