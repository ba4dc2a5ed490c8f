/**
 * cloud-sim: a local AWS, Azure and GCP that the real SDK clients talk to over loopback, with each
 * provider's quotas enforced server-side.
 *
 * <p>{@link io.cloudg.sim.CloudSim#start(io.cloudg.sim.SimOptions)} generates the estate from an
 * {@link io.cloudg.sim.config.EstateSpec} and a seed, then serves AWS (every service and region on one
 * HTTP endpoint), Azure ARM and Resource Graph (same HTTP port) and GCP Cloud Asset (plaintext gRPC on
 * its own port). Every provider call passes one {@link io.cloudg.sim.gate.Gate} (fault rules, quota
 * buckets, latency) and is answered in the provider's own wire shape. The estate file's
 * {@link io.cloudg.sim.config.Realism} chooses between the lenient profile (quick demos) and the strict one
 * (the providers as documented: see {@code docs/cloud-sim.md}). {@link io.cloudg.sim.estate.Truth} lists every
 * asset exactly as the listing APIs return it, churned ones marked, {@link io.cloudg.sim.estate.Findings} the
 * security findings the AWS estate holds by construction (public buckets, security groups open on SSH/RDP,
 * users without MFA) and {@link io.cloudg.sim.SimStats} the per-bucket counters; they are also served at
 * {@code /_sim/truth}, {@code /_sim/findings} and {@code /_sim/stats}, and the quota table in effect at
 * {@code /_sim/quotas}.
 * {@link io.cloudg.sim.SimMain} is the {@code cloudg sim} command.
 */
package io.cloudg.sim;
