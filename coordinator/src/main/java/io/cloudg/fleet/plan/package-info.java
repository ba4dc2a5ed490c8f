/**
 * Planning a fleet run: {@link io.cloudg.fleet.plan.FleetProviders} opens each provider's fleet side
 * (discovery on the coordinator, re-planning on workers), {@link io.cloudg.fleet.plan.FleetPlanner} turns
 * discovery's tasks into fleet tasks cut by {@link io.cloudg.fleet.plan.TaskSplitter}, and
 * {@link io.cloudg.fleet.plan.TaskOrder} orders them so that many quota buckets are used at once.
 */
package io.cloudg.fleet.plan;
