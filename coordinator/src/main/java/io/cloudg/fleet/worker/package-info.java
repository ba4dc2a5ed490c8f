/**
 * The worker side of the fleet: {@link io.cloudg.fleet.worker.FleetWorker} (a consumer group member with a
 * bounded number of tasks in flight), {@link io.cloudg.fleet.worker.TaskExecution} (one run of one task
 * through the embedded task runner's job logic), {@link io.cloudg.fleet.worker.ResultEmitter} (chunked
 * results, acknowledged before the offset is committed), {@link io.cloudg.fleet.worker.OffsetTracker}
 * (what may be committed), {@link io.cloudg.fleet.worker.DeadLetters} and the probes
 * ({@link io.cloudg.fleet.worker.HealthServer}).
 */
package io.cloudg.fleet.worker;
