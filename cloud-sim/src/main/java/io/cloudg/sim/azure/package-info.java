/**
 * Azure: ARM subscription, resource-group and resource listings with {@code nextLink}, and Resource Graph
 * queries with {@code $skipToken}, on the simulator's HTTP port.
 *
 * <p>Every call needs a bearer token (401 without) and an {@code api-version} ARM has for the route
 * ({@link io.cloudg.sim.azure.AzureApiVersions}): missing is 400 {@code MissingApiVersionParameter}, unknown is
 * 400 {@code InvalidApiVersionParameter} (Resource Graph: {@code NoRegisteredProviderFound}), before any quota.
 *
 * <p>Quotas follow Azure's model: ARM reads are a token bucket per subscription x principal (250, refilled
 * 25/s), reported on every answer in {@code x-ms-ratelimit-remaining-subscription-reads} (tenant-scope calls,
 * {@code GET /subscriptions} and {@code /tenants}, have a tenant x principal bucket reported in
 * {@code x-ms-ratelimit-remaining-tenant-reads}); in strict a subscription read is also charged to the
 * subscription-wide bucket shared by every principal (15 times as large), reported in
 * {@code x-ms-ratelimit-remaining-subscription-global-reads}. A 429 carries, at zero, the header of the bucket
 * that refused and no other. Resource Graph is, per principal, a bucket (15,
 * 3/s) in lenient and a fixed window of 15 queries per 5 s (opened by the first query) in strict, reported in
 * {@code x-ms-user-quota-remaining} and {@code x-ms-user-quota-resets-after} (hh:mm:ss, until the window
 * resets). A throttled call is HTTP 429 with ARM's error body ({@code SubscriptionRequestsThrottled},
 * {@code TenantRequestsThrottled}, {@code RateLimiting}); ARM's carries {@code Retry-After}: the bucket's exact wait in lenient, the observed
 * fixed value in strict ({@code quotas.azure.arm_retry_after}, 10 s); strict graph throttles carry only the
 * user-quota headers. The principal
 * is the bearer token (its hash names the bucket); tokens are not validated, only required.
 *
 * <h2>Using the real Azure SDK against the simulator</h2>
 * The SDK's {@code BearerTokenAuthenticationPolicy} refuses to send a token over plain http, so the client
 * keeps {@code https://} URLs everywhere and its {@code HttpClient} rewrites them just before sending, as a
 * TLS-terminating proxy would:
 * <ol>
 *   <li>Build an {@code AzureEnvironment} whose {@code resourceManagerEndpointUrl} (and
 *       {@code activeDirectoryEndpointUrl}) is {@code https://127.0.0.1:PORT/} -
 *       {@link io.cloudg.sim.CloudSim#azureSdkEndpoint()} - and an {@code AzureProfile(tenant, subscription,
 *       environment)}.</li>
 *   <li>Use any {@code TokenCredential} (a static token is fine; the token's value is the principal).</li>
 *   <li>Wrap the {@code HttpClient} (e.g. {@code new NettyAsyncHttpClientBuilder().build()}) in a client whose
 *       {@code send(request[, context])} sends {@code request.copy()} with the URL's scheme changed from
 *       {@code https} to {@code http} when its authority is {@code 127.0.0.1:PORT}, and adds the header
 *       {@code X-Forwarded-Proto: https}. Copy, do not mutate: retries re-send the original request.</li>
 *   <li>Pass it with {@code ResourceManager.configure().withHttpClient(...)} /
 *       {@code ResourceGraphManager.configure().withHttpClient(...)}.</li>
 * </ol>
 * The simulator builds every {@code nextLink} from the request's {@code Host} and, when present,
 * {@code X-Forwarded-Proto}, so paging stays on https URLs the SDK accepts and the wrapper rewrites. The
 * test {@code io.cloudg.sim.azure.LoopbackHttpClient} is this wrapper in 40 lines.
 */
package io.cloudg.sim.azure;
