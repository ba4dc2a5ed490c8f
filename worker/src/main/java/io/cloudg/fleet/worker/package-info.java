/**
 * The worker process of a fleet ({@code cloudg worker}): {@link io.cloudg.fleet.worker.WorkerRuntime} wires
 * the governor (Redis), the providers and the health server; {@link io.cloudg.fleet.worker.FleetWorker} is a
 * consumer group member that takes tasks while its collector threads
 * would idle ({@link io.cloudg.fleet.worker.JobPool} counts their jobs), or at most {@code max_in_flight} when set; {@link io.cloudg.fleet.worker.TaskExecution}
 * runs one task through the embedded runner's job logic ({@code TaskRunner.runJob}), so both modes judge
 * coverage alike; {@link io.cloudg.fleet.worker.ResultEmitter} sends chunked results, acknowledged before the
 * offset is committed ({@link io.cloudg.fleet.worker.OffsetTracker}); {@link io.cloudg.fleet.worker.DeadLetters}
 * keeps what nobody could use; {@link io.cloudg.fleet.worker.HealthServer} serves the probes.
 */
package io.cloudg.fleet.worker;
