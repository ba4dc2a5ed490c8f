/**
 * Azure: subscriptions, then every resource of each subscription, through ARM or Resource Graph, every
 * HTTP attempt governed.
 *
 * <h2>Governance: one pipeline, two policies and an explicit retry policy</h2>
 * {@link io.cloudg.azure.AzureClients} builds one {@link io.cloudg.azure.AzurePipeline} for all clients:
 * {@link io.cloudg.azure.GovernedCallPolicy} opens one governed call per request (before the retry policy,
 * so a request's attempts are one call: its retries, deadline and budget), an explicit
 * {@code RetryPolicy} whose {@link io.cloudg.azure.GovernedRetryStrategy} retries at most
 * {@code ratelimit.azure.max_retries} times and only when the governor grants it, after the governor's
 * backoff, and {@link io.cloudg.azure.GovernedAttemptPolicy} after it, once per HTTP attempt: breaker,
 * tokens and <b>one bulkhead slot per attempt</b> ({@code SlotMode.PER_ATTEMPT}: taken before the attempt,
 * released after it, so a request backing off holds none), then the answer classified through
 * {@link io.cloudg.azure.AzureErrorInspector} (429s are THROTTLED and halve the leaf; Retry-After pauses it;
 * Resource Graph's throttle names its window's reset, which pauses the leaf until then, and
 * {@link io.cloudg.azure.UserQuotaWindow} adds the window's size learned from earlier answers' quota headers,
 * so the leaf's rate becomes the quota spread over the window) and the decision handed back to the retry policy as a
 * {@link io.cloudg.azure.RetrySignal}. With the governor off for Azure the SDK's default retry policy
 * is used instead.
 *
 * <h2>Scopes</h2>
 * {@code azure/<subscription>/<resource-provider-key>} with the namespace's key of the rate table
 * ({@code compute}, {@code network}, {@code storage}; {@code resources} for subscriptions, resource groups
 * and the generic sweep); Resource Graph, throttled per user, is {@code azure/<principal>/resourcegraph}
 * with the client id (else the tenant id) as the principal. Collectors pass their scope and ledger to the
 * SDK in a {@link io.cloudg.azure.AzureTarget} context.
 *
 * <h2>Coverage</h2>
 * One task per subscription ({@link io.cloudg.azure.AzureProvider}): {@code azure_resources}, one
 * {@code azure_<service>} per {@link io.cloudg.azure.AzureCatalog} service, {@code azure_other} for the
 * types the catalog does not name, and the {@code azure_full} summary
 * ({@link io.cloudg.azure.AzureFullSummary}). A listing whose error escapes (throttled past its retries)
 * is FAILED with {@code throttled: ...}; {@code azure_full} is then PARTIAL.
 */
package io.cloudg.azure;
