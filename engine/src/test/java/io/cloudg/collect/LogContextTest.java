package io.cloudg.collect;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.metrics.CloudgMetrics;
import io.cloudg.metrics.MapMetrics;
import io.cloudg.metrics.MetricsSettings;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.time.ManualTimeSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * Every line a task writes says which run and task it belongs to: a collector job runs with the run id,
 * task id, provider, account and region in the MDC, also on the threads it hands per-item work to, and the
 * thread has its old context back afterwards. The job's entry and assets are counted.
 */
class LogContextTest {
    final CollectionTask task = new CollectionTask("aws", "123456789012", "eu-west-1", List.of());

    @Test
    void aJobRunsWithItsTaskInTheMdcAndItsHelpersToo() throws Exception {
        AtomicReference<Map<String, String>> onJob = new AtomicReference<>();
        AtomicReference<Map<String, String>> onHelper = new AtomicReference<>();
        ExecutorService helpers = Executors.newSingleThreadExecutor();
        CollectorJob job = new CollectorJob("vpcs", sink -> {
            onJob.set(MDC.getCopyOfContextMap());
            helpers.submit(LogContext.wrap(() -> onHelper.set(MDC.getCopyOfContextMap()))).get();
        });
        ManualTimeSource time = new ManualTimeSource();
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "test", time);
             LogContext run = LogContext.run("run-1")) {
            ServiceCoverage entry = TaskRunner.runJob(Coverage.of(Governor.builder().time(time).build()), task, job,
                    new ThrottlingStats(), a -> { }, MapMetrics.of(metrics));
            assertThat(entry.status()).isEqualTo(CoverageStatus.SUCCESS);
            assertThat(metrics.registry().find("cloudg.coverage.entries").tags("provider", "aws", "status", "SUCCESS")
                    .counter().count()).isEqualTo(1);
            assertThat(MDC.getCopyOfContextMap()).as("the thread's own context is back").isEqualTo(Map.of("run_id", "run-1"));
        } finally {
            helpers.shutdownNow();
        }
        Map<String, String> expected = Map.of("run_id", "run-1", "task_id", task.id(), "provider", "aws",
                "account", "123456789012", "region", "eu-west-1");
        assertThat(onJob.get()).isEqualTo(expected);
        assertThat(onHelper.get()).as("a helper thread of the job").isEqualTo(expected);
        assertThat(MDC.getCopyOfContextMap()).isNullOrEmpty();
    }

    @Test
    void aFleetTaskIdGivenByTheCallerIsKept() {
        AtomicReference<String> taskId = new AtomicReference<>();
        try (LogContext delivery = LogContext.bind(Map.of(LogContext.TASK_ID, "aws/123456789012/eu-west-1#2"))) {
            TaskRunner.runJob(Coverage.of(Governor.builder().time(new ManualTimeSource()).build()), task,
                    new CollectorJob("vpcs", sink -> taskId.set(MDC.get(LogContext.TASK_ID))), new ThrottlingStats(), a -> { });
        }
        assertThat(taskId.get()).isEqualTo("aws/123456789012/eu-west-1#2");
    }
}
