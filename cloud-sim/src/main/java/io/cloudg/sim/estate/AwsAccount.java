package io.cloudg.sim.estate;

import java.time.Instant;

/** One account of the organization. */
public record AwsAccount(String id, String name, String email, boolean management, Instant joined) {
}
