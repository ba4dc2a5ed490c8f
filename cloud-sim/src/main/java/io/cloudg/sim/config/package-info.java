/**
 * What the simulator is told: the estate file (accounts, subscriptions, projects, resource counts,
 * quotas, noisy neighbours, latency) and the fault file.
 *
 * <p>Both are immutable records read by one strict YAML reader ({@code SpecNode}): every key is known,
 * every value is checked, and a refusal is a {@link io.cloudg.sim.config.SpecException} whose message
 * starts with the dotted path of the bad key, e.g. {@code estate.aws.accounts: expected a positive
 * integer, got "abc"}. Defaults live next to the records that use them ({@link
 * io.cloudg.sim.config.QuotaSpec#defaults()}), with the provider documentation they come from.
 */
package io.cloudg.sim.config;
