package io.cloudg.sim.gcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.TypeRegistry;
import com.google.protobuf.util.JsonFormat;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import com.google.rpc.RetryInfo;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cloud Asset's REST (HTTP/1.1 + JSON) binding on the simulator's HTTP port, as
 * {@code https://cloudasset.googleapis.com/v1/...} serves it: {@code GET /v1/{parent}/assets} (ListAssets) and
 * {@code GET /v1/{scope}:searchAllResources} (SearchAllResources). Request fields are query parameters (JSON
 * or proto names, repeated fields repeated, {@code read_mask} as a comma-separated list); answers are the
 * proto3 JSON of the same messages the gRPC service answers, from the same {@link GcpAssetService} (same
 * estate, same quotas, same faults). Errors are Google's JSON error body: the HTTP status of the gRPC code
 * (429 for {@code RESOURCE_EXHAUSTED}), {@code {"error": {"code", "message", "status", "details"}}} with the
 * {@code ErrorInfo} as an {@code @type}d detail. The quota project is the {@code x-goog-user-project} header,
 * else the {@code $userProject} system parameter. A path under {@code /v1/projects|organizations|folders/}
 * is taken as Cloud Asset's unless it is SigV4-signed (an S3 bucket named {@code v1}).
 */
public final class GcpRestFrontend {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern PARENT = Pattern.compile("(?:projects|organizations|folders)/[^/:]+");
    private static final Pattern CLAIMED = Pattern.compile("/v1/" + PARENT.pattern() + "(?:[/:].*)?");
    private static final Pattern LIST_ASSETS = Pattern.compile("/v1/(" + PARENT.pattern() + ")/assets");
    private static final Pattern SEARCH = Pattern.compile("/v1/(" + PARENT.pattern() + "):searchAllResources");
    /** Methods of the same service the simulator does not serve (answered 501, as gRPC answers UNIMPLEMENTED). */
    private static final Pattern OTHER_METHODS = Pattern.compile("/v1/(" + PARENT.pattern()
        + ")(?:(?::[A-Za-z]+)|/(?:feeds|savedQueries|operations)(?:/.*)?)");
    /**
     * Google's system parameters that change nothing the simulator answers (credentials are not checked, output
     * is compact JSON, per-user quota attribution is not modelled); {@code $alt} is checked and
     * {@code $userProject} names the quota project. Others ({@code fields}: partial responses) are refused.
     */
    private static final Set<String> SYSTEM = Set.of("$alt", "alt", "key", "prettyPrint", "$prettyPrint",
        "access_token", "oauth_token", "quotaUser", "$quotaUser", "$.xgafv", "$xgafv", "$userProject", "userProject");
    private static final TypeRegistry DETAILS = TypeRegistry.newBuilder().add(ErrorInfo.getDescriptor())
        .add(RetryInfo.getDescriptor()).build();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser();
    private static final JsonFormat.Printer PRINTER = JsonFormat.printer().omittingInsignificantWhitespace()
        .usingTypeRegistry(DETAILS);

    private final GcpAssetService service;

    public GcpRestFrontend(GcpAssetService service) {
        this.service = service;
    }

    /**
     * Whether a request is Cloud Asset's REST: a {@code /v1/projects|organizations|folders/...} path that is
     * not signed for AWS (an S3 bucket named {@code v1} is addressed with a SigV4 signature).
     */
    public static boolean claims(SimRequest req) {
        if (!CLAIMED.matcher(req.path()).matches()) {
            return false;
        }
        String auth = req.header("Authorization");
        return !(auth != null && auth.startsWith("AWS4-")) && !req.hasQueryParam("X-Amz-Algorithm");
    }

    public SimResponse handle(SimRequest req) {
        String path = req.path();
        // Google's clients send $alt=json;enum-encoding=int: a semicolon is part of a value, not a separator
        Map<String, List<String>> query = new QueryStringDecoder(req.uri(), StandardCharsets.UTF_8, true, 1024, true)
            .parameters();
        boolean enumsAsInts = false;
        try {
            String alt = first(query, "$alt") != null ? first(query, "$alt") : first(query, "alt");
            if (alt != null) {
                if (!alt.equals("json") && !alt.startsWith("json;")) {
                    throw GcpErrors.invalidArgument("Request contains an invalid argument: alt '" + alt
                        + "' is not served by cloud-sim (json).");
                }
                enumsAsInts = alt.contains("enum-encoding=int");
            }
            Matcher m;
            if ((m = LIST_ASSETS.matcher(path)).matches() && req.method().equals("GET")) {
                ListAssetsRequest.Builder b = ListAssetsRequest.newBuilder();
                fill(b, query);
                return answer(service.listAssets(b.setParent(m.group(1)).build(), userProject(req, query)), enumsAsInts);
            }
            if ((m = SEARCH.matcher(path)).matches() && req.method().equals("GET")) {
                SearchAllResourcesRequest.Builder b = SearchAllResourcesRequest.newBuilder();
                fill(b, query);
                return answer(service.searchAllResources(b.setScope(m.group(1)).build(), userProject(req, query)),
                    enumsAsInts);
            }
            if (OTHER_METHODS.matcher(path).matches() || LIST_ASSETS.matcher(path).matches() || SEARCH.matcher(path).matches()) {
                throw GcpErrors.status(Code.UNIMPLEMENTED, "cloud-sim does not serve " + req.method() + " " + path
                    + " (served: GET /v1/{parent}/assets, GET /v1/{scope}:searchAllResources).");
            }
            throw GcpErrors.status(Code.NOT_FOUND, "The requested URL " + path + " was not found on this server.");
        } catch (StatusRuntimeException e) {
            return error(e, 0);
        }
    }

    private static SimResponse answer(GcpAssetService.Outcome<? extends Message> o, boolean enumsAsInts) {
        if (o.reset()) {
            return SimResponse.reset(o.delayNanos());
        }
        if (o.error() != null) {
            return error(o.error(), o.delayNanos());
        }
        try {
            JsonFormat.Printer p = enumsAsInts ? PRINTER.printingEnumsAsInts() : PRINTER;
            return SimResponse.status(200).body("application/json; charset=UTF-8", p.print(o.response())).build()
                .withDelay(o.delayNanos());
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("cannot print " + o.response().getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Google's JSON error: the gRPC status with the HTTP code, the code's name, and the typed details. */
    static SimResponse error(StatusRuntimeException e, long delayNanos) {
        com.google.rpc.Status s = StatusProto.fromThrowable(e);
        if (s == null) {
            s = com.google.rpc.Status.newBuilder().setCode(e.getStatus().getCode().value())
                .setMessage(String.valueOf(e.getStatus().getDescription())).build();
        }
        Code code = Code.forNumber(s.getCode());
        int http = httpStatus(code);
        ObjectNode err = JsonNodeFactory.instance.objectNode();
        err.put("code", http);
        err.put("message", s.getMessage());
        err.put("status", code == null ? "UNKNOWN" : code.name());
        if (s.getDetailsCount() > 0) {
            ArrayNode details = err.putArray("details");
            try {
                for (com.google.protobuf.Any d : s.getDetailsList()) {
                    details.add(JSON.readTree(PRINTER.print(d)));
                }
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode().set("error", err);
        try {
            return SimResponse.status(http).body("application/json; charset=UTF-8", JSON.writeValueAsBytes(body)).build()
                .withDelay(delayNanos);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The HTTP status Google's REST front end maps each gRPC code to. */
    static int httpStatus(Code code) {
        if (code == null) {
            return 500;
        }
        return switch (code) {
            case OK -> 200;
            case CANCELLED -> 499;
            case INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> 400;
            case DEADLINE_EXCEEDED -> 504;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, ABORTED -> 409;
            case PERMISSION_DENIED -> 403;
            case UNAUTHENTICATED -> 401;
            case RESOURCE_EXHAUSTED -> 429;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 503;
            default -> 500;
        };
    }

    /**
     * Sets the request's fields from the query string, as Google's HTTP transcoding binds them: each parameter
     * names a field (JSON or proto name, {@code a.b} for a nested one), a repeated field takes every value, a
     * message field its JSON string form ({@code read_mask=name,location}, {@code read_time=2024-01-01T00:00:00Z}),
     * an enum its name or number. An unknown parameter is refused naming it.
     */
    static void fill(Message.Builder builder, Map<String, List<String>> query) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, List<String>> e : query.entrySet()) {
            String name = e.getKey();
            if (SYSTEM.contains(name)) {
                continue;
            }
            if (name.equals("fields") || name.equals("$fields")) {
                throw GcpErrors.invalidArgument("Request contains an invalid argument: the '" + name + "' parameter "
                    + "(partial responses) is not served by cloud-sim; use read_mask (SearchAllResources).");
            }
            Descriptors.Descriptor d = builder.getDescriptorForType();
            ObjectNode at = json;
            String[] parts = name.split("\\.");
            Descriptors.FieldDescriptor f = null;
            for (int i = 0; i < parts.length; i++) {
                f = field(d, parts[i]);
                if (f == null) {
                    throw GcpErrors.invalidArgument("Invalid JSON payload received. Unknown name \"" + name
                        + "\": Cannot bind query parameter. Field '" + parts[i] + "' could not be found in request message.");
                }
                if (i < parts.length - 1) {
                    if (f.getJavaType() != Descriptors.FieldDescriptor.JavaType.MESSAGE || f.isRepeated()) {
                        throw GcpErrors.invalidArgument("Invalid JSON payload received. Unknown name \"" + name
                            + "\": Cannot bind query parameter.");
                    }
                    at = at.has(f.getJsonName()) && at.get(f.getJsonName()).isObject() ? (ObjectNode) at.get(f.getJsonName())
                        : at.putObject(f.getJsonName());
                    d = f.getMessageType();
                }
            }
            String key = f.getJsonName();
            if (f.isRepeated()) {
                ArrayNode a = at.has(key) && at.get(key).isArray() ? (ArrayNode) at.get(key) : at.putArray(key);
                e.getValue().forEach(a::add);
            } else {
                at.put(key, e.getValue().get(e.getValue().size() - 1));
            }
        }
        try {
            PARSER.merge(JSON.writeValueAsString(json), builder);
        } catch (InvalidProtocolBufferException ex) {
            throw GcpErrors.invalidArgument("Invalid query parameter: " + ex.getMessage());
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The quota project: the {@code x-goog-user-project} header, else the {@code $userProject} parameter. */
    private static String userProject(SimRequest req, Map<String, List<String>> query) {
        String header = req.header("x-goog-user-project");
        if (header != null) {
            return header;
        }
        return first(query, "$userProject") != null ? first(query, "$userProject") : first(query, "userProject");
    }

    private static String first(Map<String, List<String>> query, String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static Descriptors.FieldDescriptor field(Descriptors.Descriptor d, String name) {
        Descriptors.FieldDescriptor f = d.findFieldByName(name);
        if (f != null) {
            return f;
        }
        for (Descriptors.FieldDescriptor c : d.getFields()) {
            if (c.getJsonName().equals(name)) {
                return c;
            }
        }
        return null;
    }
}
