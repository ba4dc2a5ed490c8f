package io.cloudg.config;

import io.cloudg.resilience.config.ConfigErrors;
import io.cloudg.resilience.config.ConfigNode;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code azure} block.
 *
 * @param endpointUrl the ARM endpoint (a running {@code cloudg sim}), or null for Azure. An {@code http://}
 *        endpoint is reached by keeping {@code https://} URLs in the SDK (its bearer-token policy refuses
 *        plain http) and sending them as http to exactly that host and port.
 * @param tenantId the tenant, or null (required with a client secret)
 * @param subscriptions only these subscriptions (empty: every subscription the principal can list)
 * @param clientId a service principal's client id, or null for the default credential chain
 *        (environment, managed identity, Azure CLI); against an endpoint_url, a static token
 * @param clientSecret its secret
 * @param resourceGraph list resources through Resource Graph (true) or ARM per subscription (false)
 */
public record AzureSettings(URI endpointUrl, String tenantId, List<String> subscriptions, String clientId,
                            String clientSecret, boolean resourceGraph) {
    static final Pattern GUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Set<String> KEYS = Set.of("endpoint_url", "tenant_id", "subscriptions", "client_id", "client_secret",
            "resource_graph");

    public static final AzureSettings DEFAULTS = new AzureSettings(null, null, List.of(), null, null, false);

    public AzureSettings {
        subscriptions = List.copyOf(subscriptions);
    }

    public static AzureSettings load(ConfigNode y) {
        y.warnUnknown(KEYS);
        String clientId = y.string("client_id", null);
        String secret = y.string("client_secret", null);
        String tenant = y.string("tenant_id", null, GUID, "a tenant id (a GUID)");
        if ((clientId == null) != (secret == null)) {
            throw ConfigErrors.mustBe(clientId == null ? "azure.client_id" : "azure.client_secret",
                    "set together with " + (clientId == null ? "azure.client_secret" : "azure.client_id"), "(unset)");
        }
        if (clientId != null && tenant == null) {
            throw ConfigErrors.mustBe("azure.tenant_id", "set when azure.client_id is (a client secret belongs to a tenant)",
                    "(unset)");
        }
        return new AzureSettings(y.uri("endpoint_url", "http://127.0.0.1:4566"), tenant,
                y.strings("subscriptions", List.of(), GUID, "a subscription id (a GUID)"), clientId, secret,
                y.bool("resource_graph", DEFAULTS.resourceGraph()));
    }

    public AzureSettings withEndpoint(URI uri) {
        return new AzureSettings(uri, tenantId, subscriptions, clientId, clientSecret, resourceGraph);
    }

    public AzureSettings withResourceGraph(boolean on) {
        return new AzureSettings(endpointUrl, tenantId, subscriptions, clientId, clientSecret, on);
    }

    public AzureSettings withTenant(String tenant) {
        if (tenant != null && !GUID.matcher(tenant).matches()) {
            throw ConfigErrors.mustBe("azure.tenant_id", "a tenant id (a GUID)", tenant);
        }
        return new AzureSettings(endpointUrl, tenant, subscriptions, clientId, clientSecret, resourceGraph);
    }

    public AzureSettings withSubscriptions(List<String> ids) {
        for (String s : ids) {
            if (!GUID.matcher(s).matches()) {
                throw ConfigErrors.mustBe("azure.subscriptions entry", "a subscription id (a GUID)", s);
            }
        }
        return new AzureSettings(endpointUrl, tenantId, ids, clientId, clientSecret, resourceGraph);
    }

    /** Redacted for logs. */
    @Override
    public String toString() {
        return "AzureSettings{endpoint=" + endpointUrl + ", tenant=" + tenantId + ", subscriptions=" + subscriptions
                + ", resource_graph=" + resourceGraph + ", credentials=" + (clientId == null ? "default chain" : "client secret") + "}";
    }
}
