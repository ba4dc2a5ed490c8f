package io.cloudg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** job_concurrency, and workers, its old name, still read with one warning naming the new key. */
class CloudGConfigTest {
    @Test
    void jobConcurrencyIsReadAndDefaultsToTheCeilingOnCallsInFlight() {
        assertThat(CloudGConfig.fromYaml("job_concurrency: 32").jobConcurrency()).isEqualTo(32);
        assertThat(CloudGConfig.fromYaml("job_concurrency: 32").jobConcurrencySet()).isTrue();
        assertThat(CloudGConfig.fromYaml("providers: [aws]").jobConcurrency()).isEqualTo(4096);
        assertThat(CloudGConfig.fromYaml("providers: [aws]").jobConcurrencySet()).isFalse();
        assertThat(CloudGConfig.fromYaml("ratelimit: {max_calls_in_flight: 300}").jobConcurrency()).isEqualTo(300);
        assertThat(CloudGConfig.fromYaml("job_concurrency: 32").warnings()).isEmpty();
        assertThatThrownBy(() -> CloudGConfig.fromYaml("job_concurrency: 0"))
                .hasMessage("job_concurrency must be an integer >= 1, but was 0");
    }

    @Test
    void workersIsTheOldNameWithAWarningAndNotBesideTheNewOne() {
        CloudGConfig c = CloudGConfig.fromYaml("workers: 8");
        assertThat(c.jobConcurrency()).isEqualTo(8);
        assertThat(c.warnings()).containsExactly("workers is renamed job_concurrency: read as job_concurrency for now; "
                + "write job_concurrency instead");
        assertThatThrownBy(() -> CloudGConfig.fromYaml("workers: 8\njob_concurrency: 4"))
                .hasMessage("workers: is the old name of job_concurrency, which is set too: remove workers");
    }
}
