package io.cloudg.azure;

import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Turns a failed ARM answer into the exception the SDK would throw for it, so that the governor classifies
 * an attempt the pipeline sees (a 429 that will be retried) exactly as it classifies the error a collector
 * finally gets: ARM's {@code {"error": {"code", "message"}}} body, the status and the headers, read by
 * {@link AzureErrorInspector}.
 */
final class AzureFailures {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AzureFailures() {
    }

    /** @param body the response body, already buffered (may be empty or not JSON) */
    static ManagementException of(HttpResponse response, String body) {
        ManagementError error = parse(body);
        String message = "Status code " + response.getStatusCode()
                + (error == null ? (body == null || body.isBlank() ? "" : ", " + body.strip())
                : ", " + error.getCode() + ": " + error.getMessage());
        return new ManagementException(message, response, error);
    }

    private static ManagementError parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            JsonNode root = JSON.readTree(body);
            JsonNode e = root.has("error") ? root.get("error") : root;
            String code = e.path("code").asText(null);
            String message = e.path("message").asText(null);
            return code == null && message == null ? null : new ManagementError(code, message);
        } catch (IOException e) {
            return null;
        }
    }
}
