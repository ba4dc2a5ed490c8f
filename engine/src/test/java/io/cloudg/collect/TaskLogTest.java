package io.cloudg.collect;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.report.ThrottlingStats;
import io.cloudg.resilience.time.ManualTimeSource;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a task's log says: a collector that is not SUCCESS is a WARN with its reason, in its task's context; a task
 * that ended is one line with its id, account, region, jobs, calls, assets and status, at the level asked.
 */
class TaskLogTest {
    final CollectionTask task = new CollectionTask("aws", "123456789012", "eu-west-1", List.of());
    final Logger logger = (Logger) LoggerFactory.getLogger("cloudg.task");
    final ListAppender<ILoggingEvent> events = new ListAppender<>();

    @BeforeEach
    void capture() {
        events.start();
        logger.addAppender(events);
        logger.setLevel(Level.INFO);
    }

    @AfterEach
    void release() {
        logger.detachAppender(events);
        logger.setLevel(null);
    }

    static Map<String, Object> fields(ILoggingEvent e) {
        return e.getKeyValuePairs() == null ? Map.of()
                : e.getKeyValuePairs().stream().collect(Collectors.toMap(p -> p.key, p -> p.value));
    }

    @Test
    void aJobThatFailsIsAWarningWithItsReasonInItsTask() {
        CollectorJob denied = new CollectorJob("sqs_queues", sink -> {
            sink.accept(null);
            throw new IllegalStateException("AccessDenied: not authorized to perform sqs:ListQueues");
        });
        CollectorJob fine = new CollectorJob("vpc", sink -> { });
        ManualTimeSource time = new ManualTimeSource();
        try (LogContext run = LogContext.run("run-7")) {
            Coverage coverage = Coverage.of(Governor.builder().time(time).build());
            TaskRunner.runJob(coverage, task, denied, new ThrottlingStats(), a -> { });
            TaskRunner.runJob(coverage, task, fine, new ThrottlingStats(), a -> { });
        }
        assertThat(events.list).as("one line, for the failed job only").singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.WARN);
            assertThat(e.getFormattedMessage()).startsWith("collector sqs_queues FAILED in aws/123456789012/eu-west-1: ")
                    .contains("AccessDenied").endsWith("(1 asset)");
            assertThat(e.getMDCPropertyMap()).containsEntry("run_id", "run-7").containsEntry("task_id", task.id())
                    .containsEntry("account", "123456789012").containsEntry("region", "eu-west-1");
            assertThat(fields(e)).containsEntry("collector", "sqs_queues").containsEntry("status", "FAILED")
                    .containsEntry("assets", 1L);
        });
    }

    @Test
    void aTaskThatEndedIsOneLineWithItsFigures() {
        List<ServiceCoverage> entries = List.of(ServiceCoverage.success("vpc", 2),
                new ServiceCoverage("amis", CoverageStatus.PARTIAL, 40, "throttled: gave up after 3 retries"),
                ServiceCoverage.success("subnets", 3));
        try (LogContext delivery = LogContext.bind(Map.of(LogContext.RUN_ID, "run-7", LogContext.TASK_ID, "t-42"))) {
            TaskLog.ended(task, entries, 230, 3_200, org.slf4j.event.Level.INFO);
            TaskLog.ended(task, entries, 230, 3_200, org.slf4j.event.Level.DEBUG);
        }
        assertThat(events.list).as("DEBUG is below the logger's level").singleElement().satisfies(e -> {
            assertThat(e.getLevel()).isEqualTo(Level.INFO);
            assertThat(e.getFormattedMessage()).isEqualTo(
                    "task t-42 ended PARTIAL in aws/123456789012/eu-west-1: 3 jobs (1 PARTIAL), 230 calls, 45 assets in 3.2 s");
            assertThat(e.getMDCPropertyMap()).containsEntry("run_id", "run-7").containsEntry("task_id", "t-42")
                    .containsEntry("account", "123456789012").containsEntry("region", "eu-west-1");
            assertThat(fields(e)).containsEntry("status", "PARTIAL").containsEntry("jobs", 3).containsEntry("calls", 230L)
                    .containsEntry("assets", 45L).containsEntry("duration_ms", 3_200L);
        });
    }

    @Test
    void theTaskStatusIsItsWorstEntryAndUnknownFiguresAreLeftOut() {
        assertThat(TaskLog.status(List.of())).isEqualTo(CoverageStatus.SUCCESS);
        assertThat(TaskLog.status(List.of(new ServiceCoverage("a", CoverageStatus.PARTIAL, 0, "x"),
                new ServiceCoverage("b", CoverageStatus.FAILED, 0, "y")))).isEqualTo(CoverageStatus.FAILED);
        assertThat(TaskLog.endedMessage(null, task, List.of(ServiceCoverage.success("vpc", 1)), -1, 1, -1))
                .isEqualTo("task " + task.id() + " ended SUCCESS in aws/123456789012/eu-west-1: 1 job, 1 asset");
    }
}
