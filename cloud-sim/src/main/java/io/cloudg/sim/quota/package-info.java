/**
 * Server-side quotas: one bucket per provider quota scope, in each provider's documented model.
 *
 * <p>The models are pure functions of (state, now, config): {@link io.cloudg.sim.quota.TokenBucket} (burst,
 * refilled continuously or in whole-second steps) and {@link io.cloudg.sim.quota.FixedWindow} (calls per
 * window, reset at once; windows open at the first call or on multiples of their length). A
 * {@link io.cloudg.sim.quota.Neighbour} takes a steady share of the refill (of each window) and, when it
 * bursts, part of the capacity at seeded random moments drawn from the bucket's seed and the burst's index
 * alone, so the schedule never depends on call order. Nothing here reads a clock: tests drive the models
 * with explicit times, and the guarantee "no window of length T admits more than {@code rate * T + burst}"
 * is checked on fake time.
 *
 * <p>{@link io.cloudg.sim.quota.QuotaCell} is the only mutable part: one bucket's current state and exact
 * statistics (including the highest number of calls admitted in any 1-second window).
 * {@link io.cloudg.sim.quota.QuotaBook} owns the cells and charges a call to one or several buckets at once
 * (ARM's principal and subscription-wide reads, Cloud Asset's consumer project and organization): cells are
 * locked in key order, every bucket is asked, and the call is charged only when all of them admit it.
 * {@link io.cloudg.sim.gate.QuotaPolicy} decides which buckets a call goes to.
 */
package io.cloudg.sim.quota;
