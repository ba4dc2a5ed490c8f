package io.cloudg.metrics;

import io.cloudg.resilience.time.TimeSource;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One process's metrics: a Micrometer registry served for Prometheus ({@link #scrape()}) and, when
 * {@code metrics.otlp.url} is set, pushed over OTLP too; the JVM and process binders; the hooks that
 * refresh gauges computed from state (the governor's leaves and breakers) just before a scrape or a push.
 *
 * <p>{@link #none()} is the registry of a process without metrics: meters registered on it record
 * nothing, and nothing refreshes. Components take a {@code CloudgMetrics} and never ask which one it is.
 *
 * <pre>{@code
 * CloudgMetrics metrics = CloudgMetrics.open(settings, "worker", time);
 * Governor g = Governors.create(config.ratelimit(), System::getenv, time, metrics);   // listener, gauges, timings
 * String text = metrics.scrape();      // what GET /metrics answers
 * }</pre>
 */
public final class CloudgMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.metrics");

    /** The content type of {@link #scrape()}: the Prometheus text format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final MetricsSettings settings;
    private final TimeSource time;
    private final MeterRegistry registry;
    private final PrometheusMeterRegistry prometheus;
    private final OtlpMeterRegistry otlp;
    private final ScheduledExecutorService refresher;
    private final List<Runnable> refreshers = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

    private CloudgMetrics(MetricsSettings settings, String role, TimeSource time, boolean on) {
        this.settings = settings;
        this.time = time;
        if (!on) {
            this.registry = new CompositeMeterRegistry();
            this.prometheus = null;
            this.otlp = null;
            this.refresher = null;
            return;
        }
        Clock clock = clock(time);
        CompositeMeterRegistry composite = new CompositeMeterRegistry(clock);
        PrometheusLint.apply(composite);
        this.prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new io.prometheus.metrics.model.registry.PrometheusRegistry(), clock);
        composite.add(prometheus);
        if (settings.otlpUrl() != null) {
            this.otlp = new OtlpMeterRegistry(otlpConfig(settings, role), clock);
            composite.add(otlp);
            // a push has no scrape before it: refresh the state gauges on the push's rhythm
            this.refresher = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cloudg-metrics-refresh");
                t.setDaemon(true);
                return t;
            });
            long step = Math.max(1000, settings.otlpStep().toMillis() / 2);
            refresher.scheduleAtFixedRate(this::refresh, step, step, TimeUnit.MILLISECONDS);
        } else {
            this.otlp = null;
            this.refresher = null;
        }
        this.registry = composite;
        bindProcess();
    }

    /**
     * Metrics for a process of {@code role} ({@code worker}, {@code coordinator}, {@code map}, {@code mcp}):
     * served for Prometheus, pushed over OTLP if {@code settings} say so, with the JVM and process binders.
     */
    public static CloudgMetrics open(MetricsSettings settings, String role, TimeSource time) {
        return new CloudgMetrics(settings, role, time, true);
    }

    /** No metrics: a registry that records nothing. */
    public static CloudgMetrics none() {
        return new CloudgMetrics(MetricsSettings.DEFAULTS, "none", TimeSource.system(), false);
    }

    /** Whether anything is recorded (false for {@link #none()}). */
    public boolean enabled() {
        return prometheus != null;
    }

    public MeterRegistry registry() {
        return registry;
    }

    public MetricsSettings settings() {
        return settings;
    }

    public TimeSource time() {
        return time;
    }

    /** Runs {@code r} before each scrape (and each OTLP push): gauges computed from state refresh there. */
    public void onRefresh(Runnable r) {
        if (enabled()) {
            refreshers.add(r);
        }
    }

    /** Refreshes the state gauges now; a refresher that fails keeps its previous values. */
    public void refresh() {
        for (Runnable r : refreshers) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.debug("refreshing metrics failed: {}", e.toString());
            }
        }
    }

    /** Every metric in the Prometheus text format (empty for {@link #none()}). */
    public String scrape() {
        if (prometheus == null) {
            return "";
        }
        refresh();
        return prometheus.scrape();
    }

    /** Something bound to the registry until closed. */
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    private void bindProcess() {
        List<MeterBinder> binders = new ArrayList<>(List.of(new ClassLoaderMetrics(), new JvmMemoryMetrics(),
                new JvmThreadMetrics(), new JvmInfoMetrics(), new ProcessorMetrics(), new UptimeMetrics(),
                new FileDescriptorMetrics(), new ProcessCpuTime()));
        JvmGcMetrics gc = new JvmGcMetrics();
        binders.add(gc);
        closeables.add(gc);
        binders.forEach(b -> b.bindTo(registry));
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception e) {
                LOG.debug("closing a metrics binder failed: {}", e.toString());
            }
        }
        if (otlp != null) {
            refresh();
            otlp.close(); // publishes what the last step holds
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    /** Micrometer's clock on the process's one time source. */
    static Clock clock(TimeSource time) {
        return new Clock() {
            @Override
            public long wallTime() {
                return time.epochMillis();
            }

            @Override
            public long monotonicTime() {
                return time.nanoTime();
            }
        };
    }

    private static OtlpConfig otlpConfig(MetricsSettings s, String role) {
        return new OtlpConfig() {
            @Override
            public String get(String key) {
                return null;
            }

            @Override
            public String url() {
                return s.otlpUrl().toString();
            }

            @Override
            public Duration step() {
                return s.otlpStep();
            }

            @Override
            public Map<String, String> headers() {
                return s.otlpHeaders();
            }

            @Override
            public Map<String, String> resourceAttributes() {
                return Map.of("service.name", "cloudg-" + role, "service.namespace", "cloudg");
            }
        };
    }
}
