/**
 * Server-side quotas: one token bucket per provider quota scope, in each provider's documented model.
 *
 * <p>A {@link io.cloudg.sim.quota.TokenBucket} holds {@code burst} tokens and refills continuously at
 * {@code rate} per second (times {@code 1 - share} when a noisy neighbour takes a share of it); an answer
 * costs one token and an empty bucket answers "throttled". Buckets read time only from the injected
 * {@link io.cloudg.sim.core.SimClock}, so the guarantee "no window of length T admits more than
 * {@code rate * T + burst} calls" is tested on fake time. Each bucket also keeps the timestamps admitted in
 * the last second, which gives the highest number of calls admitted in any 1-second window.
 *
 * <p>{@link io.cloudg.sim.quota.QuotaPolicy} turns a {@link io.cloudg.sim.core.CallScope} into a bucket key
 * and limit (EC2 per account x region x action, other AWS services per account x region x service, Azure
 * ARM reads per subscription x principal, Resource Graph per principal, Cloud Asset per project or
 * organization x method per minute); {@link io.cloudg.sim.quota.QuotaBook} owns the buckets.
 */
package io.cloudg.sim.quota;
