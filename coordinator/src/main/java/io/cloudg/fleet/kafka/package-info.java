/**
 * Kafka for the fleet: {@link io.cloudg.fleet.kafka.KafkaClients} builds producers and consumers from the
 * {@code fleet.kafka} settings (TLS and SASL included, secrets from the environment, guarantees not
 * overridable), {@link io.cloudg.fleet.kafka.FleetTopics} creates the topics and reads their ends, and
 * {@link io.cloudg.fleet.kafka.GroupView} tells which worker reads which partition.
 */
package io.cloudg.fleet.kafka;
