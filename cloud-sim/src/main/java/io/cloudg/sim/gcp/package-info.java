/**
 * GCP: Cloud Asset API v1 {@code ListAssets} and {@code SearchAllResources} over plaintext gRPC, the
 * client library's default transport, on the simulator's second port.
 *
 * <p>The service is assembled with {@code ServerServiceDefinition} and {@code ProtoUtils.marshaller} over the
 * {@code proto-google-cloud-asset-v1} messages (the generated gRPC stub artifact is not needed). Other methods
 * of the service answer {@code UNIMPLEMENTED}, as gRPC does for any unknown method. Parents and scopes are
 * {@code projects/ID}, {@code projects/NUMBER} or {@code organizations/N}; an organization lists every project's
 * assets plus the {@code cloudresourcemanager.googleapis.com/Project} and {@code .../Organization} assets, so
 * projects can be discovered from the organization. Pages use opaque tokens tied to the request.
 *
 * <p>Quotas are Cloud Asset's per-minute quotas as token buckets per project or organization and method. A
 * throttled call fails with {@code RESOURCE_EXHAUSTED} whose {@code grpc-status-details-bin} carries a
 * {@code google.rpc.ErrorInfo} (reason {@code RATE_LIMIT_EXCEEDED}, domain {@code googleapis.com}) and a
 * {@code google.rpc.RetryInfo}. Client recipe: {@code ManagedChannelBuilder.forTarget(sim.gcpTarget())
 * .usePlaintext()} in a {@code FixedTransportChannelProvider}, with {@code NoCredentialsProvider}.
 */
package io.cloudg.sim.gcp;
