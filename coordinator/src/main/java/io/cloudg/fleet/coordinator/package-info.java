/**
 * The coordinator of a fleet map: {@link io.cloudg.fleet.coordinator.FleetCoordinator} plans, journals,
 * publishes ({@link io.cloudg.fleet.coordinator.TaskPublisher}) and follows a run; the
 * {@link io.cloudg.fleet.coordinator.ResultAggregator} keeps one execution per task (staged on disk until
 * its {@code done}); the {@link io.cloudg.fleet.coordinator.AttemptTracker} decides retries and give-ups
 * on a clock it is handed; {@link io.cloudg.fleet.coordinator.FleetProgress} prints progress and ETA.
 */
package io.cloudg.fleet.coordinator;
