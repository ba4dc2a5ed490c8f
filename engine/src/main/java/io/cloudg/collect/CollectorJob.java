package io.cloudg.collect;

/**
 * One collector to run within a task.
 *
 * @param service the name of its coverage entry ({@code vpc}, {@code subnets}, {@code azure_network}...)
 * @param body the work
 */
public record CollectorJob(String service, CollectorBody body) {
}
