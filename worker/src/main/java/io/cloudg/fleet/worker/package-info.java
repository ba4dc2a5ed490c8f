/**
 * The worker process of a fleet ({@code cloudg worker}): {@link io.cloudg.fleet.worker.WorkerRuntime} wires
 * the governor (Redis), the providers and the health server; {@link io.cloudg.fleet.worker.FleetWorker} is a
 * consumer group member that takes tasks while the governor has room and its jobs would not wait long
 * ({@link io.cloudg.fleet.worker.JobPool} counts their jobs and starts the costliest first; unless
 * {@code fleet.worker.threads} is set, {@link io.cloudg.fleet.worker.JobWindow} lets as many run at once as the
 * CPU allows, judged by how late its virtual threads wake), or at most {@code max_in_flight} when set;
 * {@link io.cloudg.fleet.worker.TaskExecution}
 * runs one task through the embedded runner's job logic ({@code TaskRunner.runJob}), so both modes judge
 * coverage alike; its results go out through the fleet protocol's {@code ResultEmitter}, acknowledged before the
 * offset is committed ({@link io.cloudg.fleet.worker.OffsetTracker}), and what nobody could use to its
 * {@code DeadLetters}; {@link io.cloudg.fleet.worker.HealthServer} serves the probes.
 */
package io.cloudg.fleet.worker;
