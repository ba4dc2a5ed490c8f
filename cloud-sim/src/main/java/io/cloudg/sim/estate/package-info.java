/**
 * The simulated world, generated once at start from an {@link io.cloudg.sim.config.EstateSpec} and a seed
 * and immutable afterwards (so listings never change under a paginator and pages can be served from any
 * thread without locks).
 *
 * <p>Every id, name and timestamp comes from {@link io.cloudg.sim.estate.Ids}, which hashes the seed with a
 * stable description of the thing being named, so the same seed gives the same estate regardless of
 * generation order. {@link io.cloudg.sim.estate.AwsEstate}, {@link io.cloudg.sim.estate.AzureEstate} and
 * {@link io.cloudg.sim.estate.GcpEstate} index their resources the way their listing APIs need them, and
 * {@link io.cloudg.sim.estate.Estate#truth()} lists exactly what those APIs return.
 */
package io.cloudg.sim.estate;
