/**
 * Real servers as local processes, from the project's own dependencies and without Docker: a single-node
 * KRaft Kafka ({@link io.cloudg.fleet.local.KafkaBrokerProcess}) and Redis
 * ({@link io.cloudg.fleet.local.RedisServerProcess}), for the fleet tests, the fleet benchmark and a local
 * fleet ({@link io.cloudg.fleet.local.DevServices}, {@code scripts/fleet-local.sh}).
 */
package io.cloudg.fleet.local;
