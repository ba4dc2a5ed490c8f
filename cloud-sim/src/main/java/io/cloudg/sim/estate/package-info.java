/**
 * The simulated world, generated deterministically from an {@link io.cloudg.sim.config.EstateSpec} and a seed.
 *
 * <p>Every id, name and timestamp comes from {@link io.cloudg.sim.estate.Ids}, which hashes the seed with a
 * stable description of the thing being named, so the same seed gives the same estate regardless of
 * generation order. That is what lets the AWS estate be lazy: {@link io.cloudg.sim.estate.AwsEstate} holds
 * the accounts and generates each account x region (and each account's global part) as an
 * {@code AwsShard} when first listed, keeping a bounded number of them; a shard generated again is the same
 * shard. Azure and GCP estates are small and generated at once.
 *
 * <p>Each resource has an ordinal (its place in its listing, so page cursors survive resources appearing
 * and disappearing) and a {@link io.cloudg.sim.estate.Lifetime}: stable, or created or deleted while a map
 * runs ({@code Churn}, decided from the seed and the resource's ARN or name alone). Listings read the estate
 * at the {@link io.cloudg.sim.estate.Timeline}'s moment. Security exposure ({@link
 * io.cloudg.sim.estate.AwsSecurity}) is worked out per resource on demand from a plan ranked once at start.
 * {@link io.cloudg.sim.estate.Estate#truth()} lists every asset that ever exists, churned ones marked. An
 * estate generation N ({@code Generations}) is generation N-1 with a seeded set of resources removed, added
 * and re-tagged, decided step by step from each resource's key, so consecutive generations differ by a known
 * change.
 */
package io.cloudg.sim.estate;
