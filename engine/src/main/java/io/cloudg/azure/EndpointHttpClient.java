package io.cloudg.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import java.net.MalformedURLException;
import java.net.URL;
import reactor.core.publisher.Mono;

/**
 * Reaches a plain-http ARM endpoint ({@code azure.endpoint_url: http://127.0.0.1:PORT}, a running
 * {@code cloudg sim}) while the SDK keeps https URLs, as a TLS-terminating proxy would: the SDK's bearer
 * token policy refuses to send a token over http. Requests to exactly that host and port are sent as a
 * copy with the scheme changed to http and {@code X-Forwarded-Proto: https} (so the server's next links
 * stay https); every other request passes unchanged. The original request is never modified, since
 * retries send it again.
 */
final class EndpointHttpClient implements HttpClient {
    private static final HttpHeaderName FORWARDED_PROTO = HttpHeaderName.fromString("X-Forwarded-Proto");

    private final HttpClient delegate;
    private final String authority;

    /** @param authority {@code host:port} of the plain-http endpoint */
    EndpointHttpClient(HttpClient delegate, String authority) {
        this.delegate = delegate;
        this.authority = authority;
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
        return delegate.send(toHttp(request));
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return delegate.send(toHttp(request), context);
    }

    @Override
    public HttpResponse sendSync(HttpRequest request, Context context) {
        return delegate.sendSync(toHttp(request), context);
    }

    private HttpRequest toHttp(HttpRequest request) {
        URL u = request.getUrl();
        if (!"https".equalsIgnoreCase(u.getProtocol()) || !authority.equalsIgnoreCase(u.getAuthority())) {
            return request;
        }
        HttpRequest copy = request.copy();
        try {
            copy.setUrl(new URL("http", u.getHost(), u.getPort(), u.getFile()));
        } catch (MalformedURLException e) {
            throw new IllegalStateException("cannot rewrite " + u + " to http", e);
        }
        copy.setHeader(FORWARDED_PROTO, "https");
        return copy;
    }
}
