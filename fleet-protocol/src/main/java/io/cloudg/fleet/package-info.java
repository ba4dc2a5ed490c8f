/**
 * What the coordinator and the workers of a fleet share (the fleet-protocol module, below both): the
 * {@code fleet} section of {@code cloudg.yaml} ({@link io.cloudg.fleet.FleetSettings},
 * {@link io.cloudg.fleet.KafkaSettings}, {@link io.cloudg.fleet.Topics},
 * {@link io.cloudg.fleet.WorkerSettings}, read from the shared {@code ConfigFile} and declared by
 * {@link io.cloudg.fleet.FleetConfigKeys}) and the fleet's governor ({@link io.cloudg.fleet.FleetGovernor}:
 * Redis, never in memory). The subpackages: {@code protocol} (the messages and their codec) and {@code kafka}
 * (clients, topics, how a message is sent, results and dead letters). The worker process lives in the worker
 * module, the coordinator's side in the coordinator module.
 */
package io.cloudg.fleet;
