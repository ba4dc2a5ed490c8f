/**
 * What the simulator is told: the estate file (realism, accounts, subscriptions, projects, resource counts,
 * quotas, noisy neighbours, latency, listings, churn) and the fault file.
 *
 * <p>Both are immutable records read by one strict YAML reader ({@code SpecNode}): every key is known,
 * every value is checked, and a refusal is a {@link io.cloudg.sim.config.SpecException} whose message
 * starts with the dotted path of the bad key, e.g. {@code estate.aws.accounts: expected a positive
 * integer, got "abc"}. {@link io.cloudg.sim.config.Realism} chooses the defaults of everything the file
 * leaves out; values the file sets are kept as overrides, so switching profile ({@code withRealism}) keeps
 * them. Defaults live next to the records that use them, and {@link io.cloudg.sim.config.QuotaSpec#table()}
 * lists every limit with its source ({@code documented} or {@code guessed}).
 */
package io.cloudg.sim.config;
