/**
 * Distributed mode: one coordinator and a fleet of workers over Kafka, sharing the governor through
 * Redis. The {@code fleet} block of {@code cloudg.yaml} ({@link io.cloudg.fleet.FleetSettings},
 * {@link io.cloudg.fleet.KafkaSettings}, {@link io.cloudg.fleet.Topics},
 * {@link io.cloudg.fleet.WorkerSettings}) configures both; {@link io.cloudg.fleet.FleetConfigFile} reads
 * the file once for either. The subpackages: {@code protocol} (the messages), {@code kafka} (clients and
 * topics), {@code plan} (tasks from discovery, split and ordered), {@code coordinator} (publishing,
 * deduplicating aggregation, timeouts, resume), {@code worker} (the consumer side) and {@code local}
 * (a real Kafka broker and Redis as local processes, for tests and a local fleet).
 */
package io.cloudg.fleet;
