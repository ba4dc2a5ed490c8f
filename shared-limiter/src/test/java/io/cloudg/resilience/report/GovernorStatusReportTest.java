package io.cloudg.resilience.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.resilience.spi.StoreSnapshot;
import io.cloudg.resilience.spi.StoreStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class GovernorStatusReportTest {
    private final ObjectMapper json = new ObjectMapper();

    private ThrottlingReport empty() {
        return ThrottlingReport.build(new ThrottlingStats(), new StoreSnapshot(List.of(), List.of()), 0);
    }

    @Test
    void inMemoryReportsHaveNoGovernorField() throws Exception {
        String out = json.writeValueAsString(empty());
        assertThat(out).doesNotContain("governor").doesNotContain("degraded_seconds");
        assertThat(empty().eventful()).isFalse();
    }

    @Test
    void aDegradedRunSaysSoWithTheTimeSpent() throws Exception {
        ThrottlingReport r = empty().withGovernor(new StoreStatus("redis", false, 12_345_678_901L, 1));
        String out = json.writeValueAsString(r);
        assertThat(out).startsWith("{\"governor\":\"degraded\",\"degraded_seconds\":12.346,\"totals\":");
        assertThat(r.eventful()).as("a degraded run is worth reporting").isTrue();
        assertThat(r.summary()).containsEntry("governor", "degraded");
    }

    @Test
    void aHealthyFleetRunNamesItsBackend() throws Exception {
        ThrottlingReport r = empty().withGovernor(new StoreStatus("redis", false, 0, 0));
        assertThat(json.writeValueAsString(r)).startsWith("{\"governor\":\"redis\",\"totals\":");
        assertThat(r.eventful()).isFalse();
    }
}
