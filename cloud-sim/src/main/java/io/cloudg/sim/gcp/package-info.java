/**
 * GCP: Cloud Asset API v1 {@code ListAssets} and {@code SearchAllResources} over plaintext gRPC, the
 * client library's default transport, on the simulator's second port, and over REST/JSON on the HTTP port
 * ({@link io.cloudg.sim.gcp.GcpRestFrontend}: {@code GET /v1/{parent}/assets}, {@code GET
 * /v1/{scope}:searchAllResources}, Google's JSON error body with 429 for {@code RESOURCE_EXHAUSTED}). Both
 * transports ask the one {@link io.cloudg.sim.gcp.GcpAssetService}, which answers a transport-neutral
 * {@code Outcome} (answer or error, and the delay before it): same estate, pages, quotas and faults.
 *
 * <p>SearchAllResources serves a {@code page_size} above 500 as 500 and zero or less as the default (100),
 * and honours {@code read_mask} (top-level fields of {@code ResourceSearchResult}, or {@code *}); ListAssets
 * with content {@code RESOURCE} gives the organization and its projects the shape Cloud Asset gives them
 * (Resource Manager v1's discovery URI and REST URL, {@code data} with {@code projectNumber},
 * {@code lifecycleState}, {@code parent}).
 *
 * <p>The service is assembled with {@code ServerServiceDefinition} and {@code ProtoUtils.marshaller} over the
 * {@code proto-google-cloud-asset-v1} messages (the generated gRPC stub artifact is not needed). Other methods
 * of the service answer {@code UNIMPLEMENTED}, as gRPC does for any unknown method. Parents and scopes are
 * {@code projects/ID}, {@code projects/NUMBER} or {@code organizations/N}; an organization lists every project's
 * assets plus the {@code cloudresourcemanager.googleapis.com/Project} and {@code .../Organization} assets, so
 * projects can be discovered from the organization. Pages use opaque tokens tied to the request.
 *
 * <p>Quotas, lenient: Cloud Asset's per-minute quotas as token buckets per target project or organization and
 * method; a throttled call fails with {@code RESOURCE_EXHAUSTED} whose {@code grpc-status-details-bin}
 * carries a {@code google.rpc.ErrorInfo} (reason {@code RATE_LIMIT_EXCEEDED}, domain {@code googleapis.com})
 * and an exact {@code google.rpc.RetryInfo}. Strict, as Cloud Asset documents them: per-minute windows
 * (aligned on the clock's minutes) per <em>consumer</em> project and per organization, both charged; the
 * consumer is the {@code x-goog-user-project} metadata of the call, else the project of the caller's
 * credentials ({@code gcp.consumer_project}, by default the estate's first project). The error's
 * {@code ErrorInfo} names {@code quota_metric}, {@code quota_limit}, {@code quota_limit_value} and
 * {@code consumer} ({@code projects/NUMBER}), and there is no {@code RetryInfo}. The Java client sends
 * {@code x-goog-user-project} from {@code setQuotaProjectId} or a {@code HeaderProvider} only when gax builds
 * the channel ({@code InstantiatingGrpcChannelProvider}); on a caller-built channel
 * ({@code FixedTransportChannelProvider}) the caller must add it per call
 * ({@code GrpcCallContext.withExtraHeaders}) or with a channel interceptor. Client recipe: {@code ManagedChannelBuilder.forTarget(sim.gcpTarget())
 * .usePlaintext()} in a {@code FixedTransportChannelProvider}, with {@code NoCredentialsProvider}.
 */
package io.cloudg.sim.gcp;
