/**
 * What the coordinator and the workers of a fleet share, kept in the worker module so that both can use it
 * without a cycle: the {@code fleet} section of {@code cloudg.yaml} ({@link io.cloudg.fleet.FleetSettings},
 * {@link io.cloudg.fleet.KafkaSettings}, {@link io.cloudg.fleet.Topics},
 * {@link io.cloudg.fleet.WorkerSettings}, read from the shared {@code ConfigFile}) and the fleet's governor
 * ({@link io.cloudg.fleet.FleetGovernor}: Redis, never in memory). The subpackages: {@code protocol} (the
 * messages and their codec), {@code kafka} (clients, topics, how a message is sent), {@code provider} (each
 * provider's fleet side: discovery on the coordinator, re-planning a task on a worker) and {@code worker}
 * (the worker process itself). The coordinator's side lives in the coordinator module.
 */
package io.cloudg.fleet;
