/**
 * {@code cloudg map --retry-failed}: re-collecting only what an earlier map could not see. {@link
 * io.cloudg.retry.RetryPlan} (pure) turns the old map's coverage into the account x region targets to re-plan
 * (each provider's {@code taskFor}, no discovery) or the providers to rediscover, and merges old and new
 * coverage; {@link io.cloudg.retry.RetryMap} runs them through the governor and writes the merged run.
 */
package io.cloudg.retry;
