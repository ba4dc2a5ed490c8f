package io.cloudg.sim.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import java.net.MalformedURLException;
import java.net.URL;
import reactor.core.publisher.Mono;

/**
 * The Azure client recipe of {@link io.cloudg.sim.azure}: the SDK keeps https URLs (so its bearer-token
 * policy is satisfied) and this client sends a copy of each request to the simulator over http, marked
 * {@code X-Forwarded-Proto: https} so the simulator's next links stay https.
 */
public final class LoopbackHttpClient implements HttpClient {
    private final HttpClient delegate;
    private final String authority;

    /** @param authority {@code 127.0.0.1:PORT} of the simulator */
    public LoopbackHttpClient(HttpClient delegate, String authority) {
        this.delegate = delegate;
        this.authority = authority;
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
        return delegate.send(rewrite(request));
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return delegate.send(rewrite(request), context);
    }

    private HttpRequest rewrite(HttpRequest request) {
        URL u = request.getUrl();
        if (!"https".equals(u.getProtocol()) || !authority.equals(u.getAuthority())) {
            return request;
        }
        try {
            HttpRequest copy = request.copy();
            copy.setUrl(new URL("http", u.getHost(), u.getPort(), u.getFile()));
            copy.setHeader(com.azure.core.http.HttpHeaderName.fromString("X-Forwarded-Proto"), "https");
            return copy;
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
