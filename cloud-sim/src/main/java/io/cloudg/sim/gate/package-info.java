/**
 * The single admission path every provider front end asks before answering
 * ({@link io.cloudg.sim.gate.Gate}): fault rules first, then the call's quota buckets (all or nothing), then the
 * latency model (base, jitter, and per listed item); the front end turns its {@link io.cloudg.sim.gate.Verdict}
 * into the provider's own wire shape. {@link io.cloudg.sim.gate.QuotaPolicy} maps a call to its buckets in the
 * provider's granularity, for the estate's {@link io.cloudg.sim.config.Realism}. Above the configuration, the
 * faults and the quotas it composes; below the front ends.
 */
package io.cloudg.sim.gate;
