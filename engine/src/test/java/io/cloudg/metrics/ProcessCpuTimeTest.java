package io.cloudg.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.resilience.time.TimeSource;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The process's CPU time is exported in seconds, as Prometheus's own clients name it. */
class ProcessCpuTimeTest {
    @Test
    void everyProcessExportsItsCpuSecondsAsACounter() {
        try (CloudgMetrics metrics = CloudgMetrics.open(MetricsSettings.DEFAULTS, "test", TimeSource.system())) {
            String text = metrics.scrape();
            assertThat(text).contains("# TYPE process_cpu_seconds_total counter");
            Matcher m = Pattern.compile("(?m)^process_cpu_seconds_total ([0-9.eE+-]+)$").matcher(text);
            assertThat(m.find()).as(text).isTrue();
            double seconds = Double.parseDouble(m.group(1));
            long nanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
            assertThat(seconds).as("a JVM that ran this test used some CPU, in seconds, not nanoseconds")
                    .isPositive().isLessThanOrEqualTo(nanos / 1e9);
            assertThat(text).doesNotContain("process_cpu_time_ns");
        }
    }

    @Test
    void aJvmWithoutTheProcessCpuTimeRegistersNothing() {
        SimpleMeterRegistry r = new SimpleMeterRegistry();
        new ProcessCpuTime(new OperatingSystemMXBean() {
            @Override
            public String getName() {
                return "test";
            }

            @Override
            public String getArch() {
                return "none";
            }

            @Override
            public String getVersion() {
                return "0";
            }

            @Override
            public int getAvailableProcessors() {
                return 1;
            }

            @Override
            public double getSystemLoadAverage() {
                return -1;
            }

            @Override
            public ObjectName getObjectName() {
                return null;
            }
        }).bindTo(r);
        assertThat(r.find("process.cpu").functionCounter()).isNull();
        new ProcessCpuTime().bindTo(r);
        FunctionCounter c = r.find("process.cpu").functionCounter();
        assertThat(c.count()).isPositive();
    }
}
