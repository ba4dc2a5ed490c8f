/**
 * cloudg's metrics, with Micrometer, served for Prometheus ({@code GET /metrics}) and optionally pushed
 * over OTLP ({@code metrics.otlp.url}). {@link io.cloudg.metrics.CloudgMetrics} owns a process's registry
 * and the JVM and process binders; a process without metrics gets {@link io.cloudg.metrics.CloudgMetrics#none()},
 * whose meters record nothing, so components never ask whether metrics are on.
 *
 * <p>The governor depends on no metrics library: it tells a
 * {@link io.cloudg.resilience.spi.GovernorListener} (its SPI) what happens, and
 * {@link io.cloudg.metrics.GovernorMetrics} turns that into counters (one increment per attempt on the
 * hot path) and reads gauges from the governor's state at scrape time. {@link io.cloudg.metrics.TimedStateStore}
 * times the shared store's round trips at the edge of the {@code StateStore} SPI, leaving the Redis
 * transport alone. {@link io.cloudg.metrics.MapMetrics} counts what was mapped and
 * {@link io.cloudg.metrics.FleetMetrics} the fleet's tasks, each on the side that sees the event.
 *
 * <p>Names follow Prometheus conventions ({@code _total}, {@code _seconds}, base units); labels are
 * bounded: provider, service, operation where the leaf is per operation, outcome or status. Account and
 * region appear only with {@code metrics.per_account: true}. docs/fleet.md lists every family.
 */
package io.cloudg.metrics;
