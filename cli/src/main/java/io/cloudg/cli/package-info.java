/**
 * The {@code cloudg} command line (picocli): {@code map} (embedded or, with Kafka, a fleet),
 * {@code sim} (cloud-sim), and the fleet and governor administration commands. Every command returns
 * one of {@link io.cloudg.cli.ExitCodes}; a run that cannot start says why in one line on stderr.
 */
package io.cloudg.cli;
