package io.cloudg.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * {@code process_cpu_seconds_total}: the CPU time the JVM's process used, as every Prometheus client library
 * exports it (so that {@code rate(process_cpu_seconds_total[5m])} gives cores in use, as for any other
 * process). Micrometer's own {@code process.cpu.time} is in nanoseconds, a unit the Prometheus linter refuses
 * ({@link PrometheusLint} drops it); this counter reads the same {@code getProcessCpuTime()} in seconds. On a
 * JVM without the HotSpot extension of {@link OperatingSystemMXBean} (or where it answers -1) nothing is
 * registered.
 */
final class ProcessCpuTime implements MeterBinder {
    private final OperatingSystemMXBean os;

    ProcessCpuTime() {
        this(ManagementFactory.getOperatingSystemMXBean());
    }

    ProcessCpuTime(OperatingSystemMXBean os) {
        this.os = os;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        if (!(os instanceof com.sun.management.OperatingSystemMXBean hotspot) || hotspot.getProcessCpuTime() < 0) {
            return;
        }
        FunctionCounter.builder("process.cpu", hotspot, b -> Math.max(0, b.getProcessCpuTime()) / 1e9).baseUnit("seconds")
                .description("CPU time used by the process (user and system), in seconds").register(registry);
    }
}
