/**
 * Planning a fleet run on the coordinator: {@link io.cloudg.fleet.plan.FleetPlanner} asks each provider's
 * re-planning unit (the engine's {@code io.cloudg.replan}) to discover the estate, then turns its tasks
 * into fleet tasks cut by {@link io.cloudg.fleet.plan.TaskSplitter} and ordered by
 * {@link io.cloudg.fleet.plan.TaskOrder} so that many quota buckets are used at once.
 */
package io.cloudg.fleet.plan;
