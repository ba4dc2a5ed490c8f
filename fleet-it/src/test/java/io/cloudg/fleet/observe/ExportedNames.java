package io.cloudg.fleet.observe;

import io.cloudg.Governors;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.FleetMetrics;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.metrics.TimedStateStore;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.ProviderException;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.SlotHold;
import io.cloudg.resilience.config.RateLimitConfig;
import io.cloudg.resilience.memory.InMemoryStateStore;
import io.cloudg.resilience.time.ManualTimeSource;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every metric family cloudg's code exports, found by exercising each one once (a throttle, a breaker
 * trip, a wait for tokens, a held slot, a timed store, fleet events on both sides, a mapped job) and
 * reading the names of the samples a scrape then holds.
 */
public final class ExportedNames {
    private ExportedNames() {
    }

    /** The exposition text with every family present. */
    public static String scrape() throws Exception {
        ManualTimeSource time = new ManualTimeSource();
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS.withStateRefresh(Duration.ZERO), "test", time)) {
            RateLimitConfig config = RateLimitConfig.builder().aws(a -> a.maxRetries(0).service("s3", 1.0, 1.0)).build();
            Governor g = Governors.build(Governor.builder().config(config).time(time).random(() -> 0.0)
                    .store(TimedStateStore.wrap(new InMemoryStateStore(time), metrics)), metrics);
            Scope vpcs = Scope.of("aws", "123456789012", "us-east-1", "ec2", "DescribeVpcs");
            for (int i = 0; i < 5; i++) {
                try {
                    g.call(vpcs, () -> {
                        throw new ProviderException("RequestLimitExceeded", 503, "Request limit exceeded.");
                    });
                } catch (ProviderException expected) {
                    // throttled: counted, the leaf halves, the breaker trips at the fifth
                }
            }
            Scope buckets = Scope.of("aws", "123456789012", "us-east-1", "s3", "ListBuckets");
            g.call(buckets, () -> 1);
            g.call(buckets, () -> 2); // waits a second for its token
            SlotHold hold = g.holdSlot(buckets);

            FleetMetrics fleet = FleetMetrics.of(metrics);
            FleetMetrics.Worker w = fleet.worker(() -> 1);
            w.started();
            w.done();
            w.abandoned(true);
            w.deadLettered();
            FleetMetrics.Coordinator c = fleet.coordinator();
            c.published(3);
            c.retried();
            c.givenUp();
            c.resultDeadLettered();
            c.delivered(40);
            c.lag(2);
            c.run(3, 1, 1);
            MapMetrics.of(metrics).covered("aws", new ServiceCoverage("vpcs", CoverageStatus.SUCCESS, 4, null));
            String text = metrics.scrape();
            hold.close();
            return text;
        }
    }

    /** The names of the samples in an exposition ({@code x_total}, {@code y_bucket}, ...). */
    public static Set<String> sampleNames(String exposition) {
        Set<String> out = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && (Character.isLetterOrDigit(line.charAt(end)) || line.charAt(end) == '_'
                    || line.charAt(end) == ':')) {
                end++;
            }
            out.add(line.substring(0, end));
        }
        return out;
    }
}
