/**
 * Kafka for the fleet, used by the coordinator and the workers alike: {@link io.cloudg.fleet.kafka.KafkaClients}
 * builds producers and consumers from the {@code fleet.kafka} settings (TLS and SASL included, secrets from
 * the environment, guarantees not overridable), {@link io.cloudg.fleet.kafka.FleetTopics} creates the topics
 * and reads their ends, and {@link io.cloudg.fleet.kafka.Sends} is how every message goes out (keyed, tagged
 * with its run, the producer's callback as a future, one wording when Kafka refuses). On top of it, what both
 * sides send: {@link io.cloudg.fleet.kafka.ResultEmitter} (a task's results in chunks, then its end),
 * {@link io.cloudg.fleet.kafka.DeadLetters} (what nobody could use, with the reason) and
 * {@link io.cloudg.fleet.kafka.KafkaMetrics} (the clients' own metrics).
 */
package io.cloudg.fleet.kafka;
