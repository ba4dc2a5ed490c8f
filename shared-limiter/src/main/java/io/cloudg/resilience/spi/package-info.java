/**
 * Extension points of the governor, in the style of AWS SDK v2's {@code RetryStrategy}: request and
 * response objects, MUST contracts in the Javadoc. The words they speak live here too, below the API that
 * uses them: {@link io.cloudg.resilience.spi.Scope} (the key of every bucket, breaker and bulkhead) and
 * {@link io.cloudg.resilience.spi.ErrorClass} (what an inspector says an error is).
 * <ul>
 *   <li>{@link io.cloudg.resilience.spi.StateStore}: where the governor's state lives. One request
 *       before an attempt ({@link io.cloudg.resilience.spi.AdmitRequest}: breaker, tokens at every
 *       level, bulkhead slot) and one after ({@link io.cloudg.resilience.spi.OutcomeRequest}: AIMD,
 *       breaker verdict, slot release), so a remote store costs one round trip each way. A decorator
 *       extends {@link io.cloudg.resilience.spi.ForwardingStateStore} and overrides only what it changes. A store
 *       whose learned state outlives a run keeps it per estate ({@link io.cloudg.resilience.spi.EstateKeyed}: the
 *       state file's store and Redis, with one contract, {@code LearnedStateContract}).</li>
 *   <li>{@link io.cloudg.resilience.spi.ErrorInspector}: teaches the classifier to read an SDK's
 *       exceptions without this module depending on the SDK.</li>
 *   <li>{@link io.cloudg.resilience.spi.GovernorListener}: hears every call's results, retries, waits for
 *       tokens and breaker trips, so that metrics can be kept outside this module (which depends on no
 *       metrics library). The governor asks for a {@link io.cloudg.resilience.spi.LeafListener} once per
 *       call scope and keeps it in the scope's plan: with {@code NONE} the hot path calls empty methods,
 *       with a metrics binder one counter increment per attempt.</li>
 * </ul>
 */
package io.cloudg.resilience.spi;
