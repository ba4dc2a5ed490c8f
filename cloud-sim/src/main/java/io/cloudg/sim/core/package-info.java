/**
 * The pieces every provider front end shares.
 *
 * <p>{@link io.cloudg.sim.core.SimClock} is the one clock of the simulator: token buckets, the 1-second
 * window statistics and fault time windows all read it, so tests can drive them on fake time with
 * {@link io.cloudg.sim.core.ManualClock}. {@link io.cloudg.sim.core.CallScope} names one API call the way
 * quotas and fault rules see it (provider, account, region, service, operation).
 * {@link io.cloudg.sim.core.Gate} is the single admission path: fault rules first, then the quota bucket,
 * then the latency model; every provider front end asks it before answering and turns its
 * {@link io.cloudg.sim.core.Verdict} into the provider's own wire shape.
 */
package io.cloudg.sim.core;
