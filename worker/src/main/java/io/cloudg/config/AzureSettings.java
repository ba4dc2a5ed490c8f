package io.cloudg.config;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code azure} block.
 *
 * @param endpointUrl the ARM endpoint (a running {@code cloudg sim}), or null for Azure
 * @param tenantId the tenant, or null
 * @param subscriptions only these subscriptions (empty: every subscription the principal can list)
 * @param clientId a service principal's client id, or null for a token from the environment
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

    static AzureSettings load(Yaml y, List<String> warnings) {
        y.warnUnknown(KEYS, warnings);
        return new AzureSettings(y.uri("endpoint_url"), y.string("tenant_id", null),
                y.strings("subscriptions", List.of(), GUID, "a subscription id (a GUID)"), y.string("client_id", null),
                y.string("client_secret", null), y.bool("resource_graph", DEFAULTS.resourceGraph()));
    }

    public AzureSettings withEndpoint(URI uri) {
        return new AzureSettings(uri, tenantId, subscriptions, clientId, clientSecret, resourceGraph);
    }

    public AzureSettings withResourceGraph(boolean on) {
        return new AzureSettings(endpointUrl, tenantId, subscriptions, clientId, clientSecret, on);
    }

    @Override
    public String toString() {
        return "AzureSettings{endpoint=" + endpointUrl + ", tenant=" + tenantId + ", subscriptions=" + subscriptions
                + ", resource_graph=" + resourceGraph + ", credentials=" + (clientId == null ? "environment" : "client secret") + "}";
    }
}
