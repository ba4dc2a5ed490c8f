package io.cloudg.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Raw HTTP for tests that look at the wire itself. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Http() {
    }

    public static HttpResponse<String> send(HttpRequest.Builder b) {
        try {
            return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static HttpResponse<String> get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET());
    }

    /** A SigV4-looking Authorization header for a service and region (the simulator does not check signatures). */
    public static String sigv4(String akid, String region, String service) {
        return "AWS4-HMAC-SHA256 Credential=" + akid + "/20250101/" + region + "/" + service
            + "/aws4_request, SignedHeaders=host;x-amz-date, Signature=00";
    }
}
