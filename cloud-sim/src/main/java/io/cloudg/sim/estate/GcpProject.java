package io.cloudg.sim.estate;

/** One GCP project. */
public record GcpProject(String id, long number, String displayName) {
}
