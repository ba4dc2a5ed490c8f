/**
 * What the governor tells users: per-service counters ({@link io.cloudg.resilience.report.ThrottlingStats},
 * striped so they cost nothing on the hot path) and the throttling block of a run
 * ({@link io.cloudg.resilience.report.ThrottlingReport}), whose JSON field names are part of the
 * {@code inventory-map.json} format. Counters are per run; breakers and slowed buckets come from the
 * state store when the report is made.
 */
package io.cloudg.resilience.report;
