/**
 * GCP: Cloud Asset listings per project and for the organization, over gRPC, every page governed.
 *
 * <h2>Governance: one slot per listing, gax's retry per page</h2>
 * {@link io.cloudg.gcp.GcpListing} takes <b>one bulkhead slot for the whole listing</b>
 * ({@code Governor.holdSlot}, all pages included) and asks for the pages one by one with a call context
 * whose tracer ({@link io.cloudg.gcp.ListingTracer}) carries the listing's scope, slot and ledger. gax runs
 * each page's retry loop, configured by {@link io.cloudg.gcp.GcpClients} from {@code ratelimit.gcp} (at most
 * {@code max_retries} consecutive retries per page, backoff capped at {@code max_backoff_seconds}, a page's
 * time capped at {@code deadline_seconds}, RESOURCE_EXHAUSTED retried too), and the per-page tracer
 * ({@link io.cloudg.gcp.PageTracer}, made by {@link io.cloudg.gcp.GovernedTracerFactory}) makes each page one
 * governed call under the held slot: breaker and tokens before every attempt, classification (through
 * {@link io.cloudg.gcp.GcpErrorInspector}: RESOURCE_EXHAUSTED with ErrorInfo reason RATE_LIMIT_EXCEEDED is
 * THROTTLED, its {@code quota_limit_value} per {@code quota_unit} the quota window the leaf learns its rate
 * from, RetryInfo the wait hint where a server sends one) and AIMD after it, and the retry budget's veto
 * ({@link io.cloudg.gcp.RetryVetoedException}).
 *
 * <h2>Scopes: the quotas that are charged</h2>
 * Cloud Asset charges the <em>consumer</em> project and the organization, never the project listed
 * ({@link io.cloudg.gcp.CloudAssetQuotas}). Every listing is paced on
 * {@code gcp/<consumer project>/cloudasset/<ListAssets|SearchAllResources>} (one leaf per method for the
 * whole map) and, with {@code gcp.organization}, also charged to
 * {@code gcp/organizations-N/cloudasset/<Method>PerOrganization}; every call names the consumer project in
 * {@code x-goog-user-project} ({@code gcp.consumer_project}, else the credentials' project; with neither,
 * none, and the leaf is {@code gcp/credentials-project/...}).
 *
 * <h2>Coverage</h2>
 * {@link io.cloudg.gcp.GcpProvider}: one task per project and one for the organization, each with one
 * {@code cloudasset} entry. A listing cut short by throttling keeps the assets of the pages it read and is
 * PARTIAL with {@code listing truncated: throttled: ...}; a refused one (no permission) is FAILED.
 * Projects come from {@code gcp.projects} and, with {@code gcp.organization}, from the organization's
 * SearchAllResources of {@code cloudresourcemanager.googleapis.com/Project} (its own {@code projects} entry
 * in the discovery record).
 */
package io.cloudg.gcp;
