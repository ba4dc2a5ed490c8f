/**
 * Time for the governor. One {@link io.cloudg.resilience.time.TimeSource} per governor (Caffeine's
 * {@code Ticker} habit): each operation reads the time once and passes {@code long now} down to the
 * pure algorithms. Production uses {@link io.cloudg.resilience.time.TimeSource#system()}; tests use
 * {@link io.cloudg.resilience.time.ManualTimeSource}, whose waits advance simulated time instead of
 * sleeping. The Redis backend reads time from Redis {@code TIME} instead, so a fleet never mixes the
 * clocks of different nodes.
 */
package io.cloudg.resilience.time;
