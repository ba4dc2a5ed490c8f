package io.cloudg.resilience.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.core.BreakerState;
import io.cloudg.resilience.spi.BreakerView;
import io.cloudg.resilience.spi.LeafView;
import io.cloudg.resilience.spi.StoreSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThrottlingReportJsonTest {
    @Test
    void fieldNamesAreThoseOfInventoryMapJson() throws Exception {
        ThrottlingStats stats = new ThrottlingStats();
        Scope ec2 = Scope.of("aws", "123456789012", "us-east-1", "ec2");
        ScopeCounters c = stats.counters(ec2);
        c.call();
        c.call();
        for (int i = 0; i < 11; i++) {
            c.throttled();
        }
        for (int i = 0; i < 10; i++) {
            c.retry();
        }
        c.gaveUp();
        c.waited(949_000_000L);
        stats.skipped(ec2, "throttled: DescribeSubnets (retries exhausted): RequestLimitExceeded: Request limit exceeded.");
        Scope leaf = ec2.withOperation("DescribeSubnets");
        StoreSnapshot snap = new StoreSnapshot(
                List.of(new LeafView(leaf, 5.0, 20.0, 11, 0), new LeafView(ec2.withOperation("DescribeVpcs"), 20, 20, 0, 0)),
                List.of(new BreakerView(leaf, BreakerState.Phase.CLOSED, 1, 60_000_000_000L, 0, 0)));
        ThrottlingReport r = ThrottlingReport.build(stats, snap, 0);
        JsonNode json = new ObjectMapper().valueToTree(r);
        assertThat(json.fieldNames()).toIterable().containsExactly("totals", "messages", "skipped", "scopes", "breakers",
                "slowed_buckets");
        assertThat(json.get("totals").fieldNames()).toIterable().containsExactly("calls", "throttled", "transient_errors",
                "retries", "gave_up", "rejected", "breaker_trips", "wait_seconds");
        assertThat(json.get("totals").get("wait_seconds").asDouble()).isEqualTo(0.949);
        assertThat(json.get("messages").get(0).asText())
                .isEqualTo("aws/123456789012/us-east-1/ec2: throttled 11x, slowed to 5.0 rps, 10 retries, 1 calls gave up");
        assertThat(json.get("skipped").get("aws/123456789012/us-east-1/ec2").asText()).startsWith("throttled: DescribeSubnets");
        assertThat(json.get("slowed_buckets").toString()).isEqualTo(
                "{\"aws/123456789012/us-east-1/ec2/DescribeSubnets\":{\"rate_rps\":5.0,\"ceiling_rps\":20.0,\"throttles\":11}}");
        assertThat(json.get("breakers").size()).as("closed and never tripped: not listed").isZero();
        assertThat(r.eventful()).isTrue();
        assertThat(r.summary()).containsEntry("throttled", 11L).containsEntry("gave_up", 1L);
    }

    @Test
    void waitingAloneIsEventfulFromOneSecond() {
        ThrottlingStats stats = new ThrottlingStats();
        stats.counters(Scope.of("aws", "1", "r", "ec2")).waited(999_000_000L);
        StoreSnapshot none = new StoreSnapshot(List.of(), List.of());
        assertThat(ThrottlingReport.build(stats, none, 0).eventful()).isFalse();
        stats.counters(Scope.of("aws", "1", "r", "ec2")).waited(1_000_000L);
        assertThat(ThrottlingReport.build(stats, none, 0).eventful()).isTrue();
    }
}
