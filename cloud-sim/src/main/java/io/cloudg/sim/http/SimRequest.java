package io.cloudg.sim.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** One HTTP request, fully read. */
public final class SimRequest {
    private final String method;
    private final String uri;
    private final String path;
    private final Map<String, List<String>> query;
    private final HttpHeaders headers;
    private final byte[] body;

    public SimRequest(String method, String uri, HttpHeaders headers, byte[] body) {
        this.method = method;
        this.uri = uri;
        QueryStringDecoder d = new QueryStringDecoder(uri, StandardCharsets.UTF_8);
        this.path = d.path();
        this.query = d.parameters();
        this.headers = headers;
        this.body = body;
    }

    public String method() {
        return method;
    }

    /** The request target as received (path and query). */
    public String uri() {
        return uri;
    }

    /** Decoded path. */
    public String path() {
        return path;
    }

    public Map<String, List<String>> query() {
        return query;
    }

    /** First value of a query parameter; null if absent, "" if present without value. */
    public String queryParam(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    public boolean hasQueryParam(String name) {
        return query.containsKey(name);
    }

    /** First value of a header (case-insensitive); null if absent. */
    public String header(String name) {
        return headers.get(name);
    }

    public HttpHeaders headers() {
        return headers;
    }

    public byte[] body() {
        return body;
    }

    public String bodyUtf8() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
