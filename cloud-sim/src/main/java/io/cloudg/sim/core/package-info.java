/**
 * The pieces every provider front end shares.
 *
 * <p>{@link io.cloudg.sim.core.SimClock} is the one clock of the simulator: quota buckets and windows, the
 * 1-second window statistics, fault time windows and churn all read it, so tests drive them on fake time with
 * {@link io.cloudg.sim.core.ManualClock} and never sleep. {@link io.cloudg.sim.core.CallScope} names one API
 * call the way quotas and fault rules see it (provider, account, region, service, operation).
 * {@link io.cloudg.sim.core.Gate} is the single admission path: fault rules first, then the call's quota
 * buckets (all or nothing), then the latency model (base, jitter, and per listed item); every provider front
 * end asks it before answering and turns its {@link io.cloudg.sim.core.Verdict} into the provider's own wire
 * shape. {@link io.cloudg.sim.core.QuotaPolicy} maps a call to its buckets in the provider's granularity, for
 * the estate's {@link io.cloudg.sim.config.Realism}.
 */
package io.cloudg.sim.core;
