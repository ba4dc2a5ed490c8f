/**
 * The governor every cloud API call of cloudg passes ({@link io.cloudg.resilience.Governor}), and the
 * types its users touch: {@link io.cloudg.resilience.Classifier},
 * {@link io.cloudg.resilience.GovernedCall} (one call, attempt by attempt, for SDK integrations),
 * {@link io.cloudg.resilience.TaskLedger} with the wording of what a task lost ({@link io.cloudg.resilience.Reasons}),
 * and from {@code spi} the key every limit is kept under ({@link io.cloudg.resilience.spi.Scope}).
 * Which store a governor of a cloudg command gets, and its metrics, is the engine's {@code io.cloudg.Governors}.
 *
 * <p>Layout in the manner of Failsafe: this package is the API; {@code spi} holds the extension points
 * (state stores, error inspectors); {@code core} the pure algorithms that are the specification;
 * {@code memory} the embedded store; {@code config} and {@code report} what goes in and what comes out.
 * A call goes: breaker and deadline check, tokens at the provider, account and leaf levels (by
 * reservation: the caller is told how long to wait), a bulkhead slot, the request, then the outcome
 * feeds AIMD, the breaker, the counters and, for a give-up, the task ledger. What a call needs from the
 * configuration is derived once per leaf ({@code CallPlan}), not per call scope: an organization-wide map
 * makes most of its calls in an account x region x operation of their own.
 */
package io.cloudg.resilience;
