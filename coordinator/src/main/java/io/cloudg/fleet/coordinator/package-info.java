/**
 * The coordinator of a fleet map: {@link io.cloudg.fleet.coordinator.FleetCoordinator} plans, journals
 * ({@link io.cloudg.fleet.coordinator.RunJournal}, for {@code --resume}), publishes
 * ({@link io.cloudg.fleet.coordinator.TaskPublisher}) and follows a run; the
 * {@link io.cloudg.fleet.coordinator.ResultAggregator} keeps one execution per task (staged on disk until
 * its {@code done}); the {@link io.cloudg.fleet.coordinator.AttemptTracker} decides retries and give-ups
 * on the time it is handed; {@link io.cloudg.fleet.coordinator.GroupView} tells which worker reads which
 * partition; {@link io.cloudg.fleet.coordinator.FleetProgress} prints progress and ETA. All time comes from
 * the one {@code TimeSource} the coordinator is given.
 */
package io.cloudg.fleet.coordinator;
