package io.cloudg.sim.azure;

/** Every Azure error the simulator answers with, in ARM's codes. */
final class AzureErrors {
    private AzureErrors() {
    }

    static AzureError armThrottled(String subscription, String principal, long retryAfter) {
        return new AzureError(429, "SubscriptionRequestsThrottled", "Number of 'read' requests for subscription '"
            + subscription + "' actor '" + principal + "' exceeded. Please try again after '" + retryAfter
            + "' seconds after the additional tokens are available. Refer to https://aka.ms/arm-throttling for "
            + "additional information.", retryAfter);
    }

    static AzureError tenantThrottled(String tenant, String principal, long retryAfter) {
        return new AzureError(429, "TenantRequestsThrottled", "Number of 'read' requests for tenant '" + tenant
            + "' actor '" + principal + "' exceeded. Please try again after '" + retryAfter + "' seconds after the "
            + "additional tokens are available. Refer to https://aka.ms/arm-throttling for additional information.",
            retryAfter);
    }

    static AzureError graphThrottled(long retryAfter) {
        return new AzureError(429, "RateLimiting", "Client application has been throttled and should not attempt to "
            + "repeat the request until an amount of time has elapsed. Please see https://aka.ms/resourcegraph-throttling "
            + "for help.", retryAfter);
    }

    static AzureError unauthenticated() {
        return new AzureError(401, "AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing.", 0);
    }

    static AzureError missingApiVersion() {
        return new AzureError(400, "MissingApiVersionParameter",
            "The api-version query parameter (?api-version=) is required for all requests.", 0);
    }

    /** ARM's answer to an api-version Microsoft.Resources does not have. */
    static AzureError invalidApiVersion(String version, java.util.Collection<String> supported) {
        return new AzureError(400, "InvalidApiVersionParameter", "The api-version '" + version + "' is invalid. The "
            + "supported versions are '" + String.join(",", supported) + "'.", 0);
    }

    /** ARM's answer to an api-version the Microsoft.ResourceGraph provider does not have. */
    static AzureError graphApiVersion(String version, java.util.Collection<String> supported) {
        return new AzureError(400, "NoRegisteredProviderFound", "No registered resource provider found for location "
            + "'global' and API version '" + version + "' for type 'resources'. The supported api-versions are '"
            + String.join(", ", supported) + "'. The supported locations are ', global'.", 0);
    }

    static AzureError subscriptionNotFound(String id) {
        return new AzureError(404, "SubscriptionNotFound", "The subscription '" + id + "' could not be found.", 0);
    }

    static AzureError unknownRoute(String method, String path) {
        return new AzureError(404, "InvalidResourceType", "cloud-sim does not serve " + method + " " + path
            + " (served: GET /subscriptions, /subscriptions/{id}, /subscriptions/{id}/resources, "
            + "/subscriptions/{id}/resourcegroups, /tenants; POST /providers/Microsoft.ResourceGraph/resources)", 0);
    }

    static AzureError badRequest(String code, String message) {
        return new AzureError(400, code, message, 0);
    }

    static AzureError invalidQuery(String message) {
        return new AzureError(400, "BadRequest", "Query is invalid. Please refer to the documentation for the Azure "
            + "Resource Graph service and fix the error before retrying. " + message, 0);
    }

    static AzureError accessDenied(String principal, String action, String scope) {
        return new AzureError(403, "AuthorizationFailed", "The client '" + principal + "' does not have authorization "
            + "to perform action '" + action + "' over scope '" + scope + "' or the scope is invalid.", 0);
    }

    static AzureError transientFailure() {
        return new AzureError(503, "ServiceUnavailable", "The service is temporarily unavailable. Please retry.", 0);
    }
}
