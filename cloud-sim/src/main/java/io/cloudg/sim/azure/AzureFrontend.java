package io.cloudg.sim.azure;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.gate.QuotaPolicy;
import io.cloudg.sim.gate.Verdict;
import io.cloudg.sim.estate.AzureEstate;
import io.cloudg.sim.estate.AzureResource;
import io.cloudg.sim.estate.AzureResourceGroup;
import io.cloudg.sim.estate.AzureSubscription;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.http.SimResponse;
import io.cloudg.sim.paging.BadPageToken;
import io.cloudg.sim.paging.Pager;
import io.cloudg.sim.quota.Admission;
import io.cloudg.sim.quota.BucketRef;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/** ARM and Resource Graph on the simulator's HTTP port. See the package documentation. */
public final class AzureFrontend {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GRAPH_PATH = "/providers/microsoft.resourcegraph/resources";
    private static final String TENANT_SCOPE = "tenant";
    private static final String SUBSCRIPTION_READS = "x-ms-ratelimit-remaining-subscription-reads";
    private static final String TENANT_READS = "x-ms-ratelimit-remaining-tenant-reads";
    private static final String GLOBAL_READS = "x-ms-ratelimit-remaining-subscription-global-reads";

    private final AzureEstate estate;
    private final Gate gate;
    private final QuotaPolicy quotas;
    private final AtomicLong requestIds = new AtomicLong();
    private final Pager pager;

    public AzureFrontend(AzureEstate estate, Gate gate, QuotaPolicy quotas, Pager pager) {
        this.estate = estate;
        this.gate = gate;
        this.quotas = quotas;
        this.pager = pager;
    }

    /** Whether a request is meant for Azure rather than AWS. */
    public static boolean claims(SimRequest req) {
        String auth = req.header("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return true;
        }
        String p = req.path().toLowerCase(Locale.ROOT);
        return req.hasQueryParam("api-version") && (p.startsWith("/subscriptions") || p.startsWith("/providers/")
            || p.startsWith("/tenants"));
    }

    /** The RBAC action an access-denied answer to {@code route} names. */
    private static String deniedAction(Route route) {
        if (route.graph) {
            return "Microsoft.ResourceGraph/resources/read";
        }
        return switch (route.operation) {
            case "ListSubscriptions", "GetSubscription" -> "Microsoft.Resources/subscriptions/read";
            case "ListTenants" -> "Microsoft.Resources/tenants/read";
            case "ListResourceGroups" -> "Microsoft.Resources/subscriptions/resourceGroups/read";
            default -> "Microsoft.Resources/subscriptions/resources/read";
        };
    }

    /** A parsed ARM route: which operation, which subscription, and how to answer it. */
    private record Route(String operation, String subscription, boolean graph, Function<Call, SimResponse> answer) {
        boolean tenant() {
            return subscription.equals(TENANT_SCOPE);
        }
    }

    /** One admitted call, with the quota headers its answer carries. */
    private record Call(SimRequest req, String principal, String requestId, List<SimResponse.Header> quota) {
    }

    public SimResponse handle(SimRequest req) {
        String requestId = String.format("a2a2a2a2-0000-4000-a000-%012x", requestIds.incrementAndGet());
        try {
            String auth = req.header("Authorization");
            if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7) || auth.length() <= 7) {
                throw AzureErrors.unauthenticated();
            }
            String principal = "principal-" + Integer.toHexString(auth.substring(7).trim().hashCode());
            String apiVersion = req.queryParam("api-version");
            if (apiVersion == null || apiVersion.isEmpty()) {
                throw AzureErrors.missingApiVersion();
            }
            Route route = route(req);
            if (route.graph ? !AzureApiVersions.RESOURCE_GRAPH.contains(apiVersion)
                : !AzureApiVersions.RESOURCE_MANAGER.contains(apiVersion)) {
                throw route.graph ? AzureErrors.graphApiVersion(apiVersion, AzureApiVersions.RESOURCE_GRAPH)
                    : AzureErrors.invalidApiVersion(apiVersion, AzureApiVersions.RESOURCE_MANAGER);
            }
            List<BucketRef> buckets = route.graph ? List.of(quotas.resourceGraph(principal))
                : quotas.armReads(route.subscription, principal, route.tenant());
            CallScope scope = new CallScope(Provider.AZURE, route.subscription, "global",
                route.graph ? "resourcegraph" : "arm", route.operation);
            Verdict v = gate.enter(scope, buckets);
            SimResponse answer;
            if (v instanceof Verdict.Throttled t) {
                answer = throttled(route, principal, requestId, t);
            } else if (v instanceof Verdict.Faulted f) {
                answer = switch (f.kind()) {
                    case RESET -> SimResponse.reset(0);
                    case CLOSE -> SimResponse.closed(0);
                    case ACCESS_DENIED -> error(AzureErrors.accessDenied(principal, deniedAction(route),
                        route.tenant() ? "/" : "/subscriptions/" + route.subscription), requestId,
                        List.of());
                    default -> error(AzureErrors.transientFailure(), requestId, List.of());
                };
            } else {
                Verdict.Proceed p = (Verdict.Proceed) v;
                List<SimResponse.Header> headers = quotaHeaders(route, p.admissions());
                try {
                    answer = route.answer.apply(new Call(req, principal, requestId, headers));
                } catch (AzureError e) {
                    answer = error(e, requestId, headers);
                }
            }
            long delay = v.delayNanos() + gate.itemsNanos(answer.items());
            return delay > 0 ? answer.withDelay(delay) : answer;
        } catch (AzureError e) {
            gate.counters().error();
            return error(e, requestId, List.of());
        }
    }

    /**
     * A throttled read: ARM's 429 with {@code Retry-After} (the bucket's wait, or in strict the observed fixed
     * value) and the remaining-reads header of the bucket that refused at zero (the principal's, named
     * {@code tenant} or {@code subscription} by the call's scope, or the subscription-wide one); Resource
     * Graph's 429 with the user-quota headers (and, in lenient only, {@code Retry-After}).
     */
    private SimResponse throttled(Route route, String principal, String requestId, Verdict.Throttled t) {
        long exact = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(t.retryAfterNanos() + 999_999_999L));
        boolean strict = quotas.realism().strict();
        if (route.graph) {
            AzureError e = AzureErrors.graphThrottled(strict && !t.injected() ? 0 : exact);
            return error(e, requestId, graphHeaders(0, t.fullAfterNanos()));
        }
        java.time.Duration fixed = quotas.spec().armRetryAfter();
        long secs = fixed != null ? fixed.toSeconds() : exact;
        boolean global = t.refusedBy() != null && !route.tenant()
            && !t.refusedBy().key().equals(quotas.armRead(route.subscription, principal).key());
        String header = global ? GLOBAL_READS : route.tenant() ? TENANT_READS : SUBSCRIPTION_READS;
        AzureError e = route.tenant() ? AzureErrors.tenantThrottled(estate.tenantId(), principal, secs)
            : AzureErrors.armThrottled(route.subscription, principal, secs);
        return error(e, requestId, List.of(new SimResponse.Header(header, "0")));
    }

    private Route route(SimRequest req) {
        String path = req.path();
        String lower = path.toLowerCase(Locale.ROOT);
        String[] seg = lower.replaceAll("^/+|/+$", "").split("/");
        String[] orig = path.replaceAll("^/+|/+$", "").split("/");
        String method = req.method();
        if (method.equals("POST") && lower.replaceAll("/+$", "").equals(GRAPH_PATH)) {
            return new Route("ResourcesQuery", TENANT_SCOPE, true, this::graph);
        }
        if (method.equals("GET")) {
            if (seg.length == 1 && seg[0].equals("tenants")) {
                return new Route("ListTenants", TENANT_SCOPE, false, this::tenants);
            }
            if (seg.length == 1 && seg[0].equals("subscriptions")) {
                return new Route("ListSubscriptions", TENANT_SCOPE, false, this::subscriptions);
            }
            if (seg.length >= 2 && seg[0].equals("subscriptions")) {
                String sub = orig[1];
                if (estate.subscription(sub) == null) {
                    throw AzureErrors.subscriptionNotFound(sub);
                }
                if (seg.length == 2) {
                    return new Route("GetSubscription", sub, false, c -> ok(c, subscriptionJson(estate.subscription(sub)),
                        1));
                }
                if (seg.length == 3 && seg[2].equals("resources")) {
                    return new Route("ListResources", sub, false, c -> resources(c, sub));
                }
                if (seg.length == 3 && seg[2].equals("resourcegroups")) {
                    return new Route("ListResourceGroups", sub, false, c -> resourceGroups(c, sub));
                }
            }
        }
        throw AzureErrors.unknownRoute(method, path);
    }

    // ------------------------------------------------------------------ ARM

    private SimResponse tenants(Call c) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("id", "/tenants/" + estate.tenantId());
        t.put("tenantId", estate.tenantId());
        t.put("tenantCategory", "Home");
        t.put("displayName", "cloud-sim");
        return ok(c, Map.of("value", List.of(t)), 1);
    }

    private SimResponse subscriptions(Call c) {
        return page(c, estate.subscriptions(), null, AzureFrontend::subscriptionJson);
    }

    private SimResponse resourceGroups(Call c, String sub) {
        return page(c, estate.resourceGroups(sub), null, g -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", g.armId());
            m.put("name", g.name());
            m.put("type", "Microsoft.Resources/resourceGroups");
            m.put("location", g.location());
            m.put("properties", Map.of("provisioningState", "Succeeded"));
            return m;
        });
    }

    private SimResponse resources(Call c, String sub) {
        List<AzureResource> all = estate.resourcesNow(sub);
        String filter = c.req.queryParam("$filter");
        if (filter != null && !filter.isBlank()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("resourceType\\s+eq\\s+'([^']+)'",
                java.util.regex.Pattern.CASE_INSENSITIVE).matcher(filter.trim());
            if (!m.matches()) {
                throw AzureErrors.badRequest("InvalidFilterInQueryString", "Invalid $filter '" + filter
                    + "': cloud-sim supports resourceType eq 'Namespace/type'.");
            }
            String type = m.group(1);
            all = all.stream().filter(r -> r.type().equalsIgnoreCase(type)).toList();
        }
        return page(c, all, AzureResource::ordinal, r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r.armId());
            m.put("name", r.name());
            m.put("type", r.type());
            m.put("location", r.location());
            m.put("tags", r.env() == null ? Map.of("cloudg", "sim") : Map.of("cloudg", "sim", "env", r.env()));
            return m;
        });
    }

    private static Map<String, Object> subscriptionJson(AzureSubscription s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", s.armId());
        m.put("authorizationSource", "RoleBased");
        m.put("subscriptionId", s.id());
        m.put("tenantId", s.tenantId());
        m.put("displayName", s.displayName());
        m.put("state", "Enabled");
        m.put("subscriptionPolicies", Map.of("locationPlacementId", "Public_2014-09-01", "quotaId", "PayAsYouGo_2014-09-01",
            "spendingLimit", "Off"));
        return m;
    }

    /**
     * One ARM list page: {@code $top} or the estate's page size, {@code $skiptoken} from the simulator's pager
     * (an offset in lenient, a sealed cursor in strict).
     *
     * @param ordinal the items' ordinals (null: their index)
     */
    private <T> SimResponse page(Call c, List<T> all, java.util.function.ToLongFunction<T> ordinal,
                                 Function<T, Map<String, Object>> json) {
        int size = estate.pageSize();
        String top = c.req.queryParam("$top");
        if (top != null) {
            try {
                size = Integer.parseInt(top);
            } catch (NumberFormatException e) {
                size = -1;
            }
            if (size < 1 || size > 1000) {
                throw AzureErrors.badRequest("InvalidTopInQueryString", "The $top value '" + top
                    + "' is invalid; it must be an integer from 1 to 1000.");
            }
        }
        String listing = c.req.path().toLowerCase(Locale.ROOT) + "|" + c.req.queryParam("$filter");
        String skip = c.req.queryParam("$skiptoken");
        Pager.Page<T> p = pageOf(listing, all, ordinal, skip, size);
        List<Map<String, Object>> value = new ArrayList<>(p.items().size());
        for (T item : p.items()) {
            value.add(json.apply(item));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("value", value);
        if (p.more()) {
            body.put("nextLink", nextLink(c.req, p.nextToken()));
        }
        return ok(c, body, value.size());
    }

    private <T> Pager.Page<T> pageOf(String listing, List<T> all, java.util.function.ToLongFunction<T> ordinal,
                                     String token, int size) {
        try {
            return pager.page(listing, all, ordinal, token, size);
        } catch (BadPageToken e) {
            throw AzureErrors.badRequest("InvalidSkipToken", "The skip token '" + token + "' is invalid for this listing.");
        }
    }

    private static String nextLink(SimRequest req, String skip) {
        String scheme = req.header("X-Forwarded-Proto") != null ? req.header("X-Forwarded-Proto") : "http";
        StringBuilder sb = new StringBuilder(scheme).append("://").append(req.header("Host")).append(req.path())
            .append("?api-version=").append(enc(req.queryParam("api-version")));
        for (String keep : new String[] {"$top", "$filter", "$expand"}) {
            if (req.queryParam(keep) != null) {
                sb.append('&').append(enc(keep)).append('=').append(enc(req.queryParam(keep)));
            }
        }
        return sb.append("&%24skiptoken=").append(enc(skip)).toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    // ------------------------------------------------------------------ Resource Graph

    private SimResponse graph(Call c) {
        JsonNode body;
        try {
            body = JSON.readTree(c.req.body());
        } catch (IOException e) {
            throw AzureErrors.badRequest("BadRequest", "The request body is not valid JSON.");
        }
        if (body == null || !body.isObject()) {
            throw AzureErrors.badRequest("BadRequest", "The request body must be a JSON object.");
        }
        GraphQuery q = GraphQuery.parse(body.path("query").asText(null));
        List<String> subs = new ArrayList<>();
        for (JsonNode s : body.path("subscriptions")) {
            subs.add(s.asText());
        }
        if (subs.isEmpty()) {
            estate.subscriptions().forEach(s -> subs.add(s.id()));
        }
        List<GraphRow> rows = new ArrayList<>();
        for (int si = 0; si < subs.size(); si++) {
            String sub = subs.get(si);
            if (estate.subscription(sub) == null) {
                continue;
            }
            long base = (long) si << 40;
            if (q.containers()) {
                AzureSubscription s = estate.subscription(sub);
                rows.add(new GraphRow(s.armId(), s.id(), "microsoft.resources/subscriptions", s.tenantId(), "", "", s.id(),
                    base, Map.of()));
                int k = 1;
                for (AzureResourceGroup g : estate.resourceGroups(sub)) {
                    rows.add(new GraphRow(g.armId(), g.name(), "microsoft.resources/subscriptions/resourcegroups",
                        estate.tenantId(), g.location(), g.name(), sub, base + k++, Map.of()));
                }
            } else {
                for (AzureResource r : estate.resourcesNow(sub)) {
                    rows.add(new GraphRow(r.armId(), r.name(), r.typeLower(), estate.tenantId(), r.location(),
                        r.resourceGroup(), sub, base + r.ordinal(), r.env() == null ? Map.of("cloudg", "sim")
                        : Map.of("cloudg", "sim", "env", r.env())));
                }
            }
        }
        List<GraphRow> selected = rows.stream().filter(r -> q.filters().stream().allMatch(f -> f.test(r))).toList();
        if (q.order() != null) {
            selected = selected.stream().sorted(q.order()).toList();
        }
        if (q.limit() != null && selected.size() > q.limit()) {
            selected = selected.subList(0, q.limit());
        }
        JsonNode options = body.path("options");
        int top = options.path("$top").asInt(100);
        if (top < 1 || top > 1000) {
            throw AzureErrors.badRequest("BadRequest", "options.$top must be from 1 to 1000.");
        }
        int skip = Math.min(Math.max(0, options.path("$skip").asInt(0)), selected.size());
        String scopeKey = "graph:" + body.path("query").asText() + ":" + String.join(",", subs) + ":" + skip;
        String skipToken = options.path("$skipToken").asText(null);
        Pager.Page<GraphRow> p = pageOf(scopeKey, selected.subList(skip, selected.size()),
            q.order() == null ? GraphRow::ordinal : null, skipToken, top);
        List<GraphRow> page = p.items();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("totalRecords", selected.size());
        out.put("count", page.size());
        out.put("resultTruncated", "false");
        if (p.more()) {
            out.put("$skipToken", p.nextToken());
        }
        if ("table".equalsIgnoreCase(options.path("resultFormat").asText("objectArray"))) {
            List<Map<String, String>> cols = new ArrayList<>();
            for (String col : q.projection()) {
                cols.add(Map.of("name", col, "type", col.equals("properties") || col.equals("tags") ? "object" : "string"));
            }
            List<List<Object>> data = new ArrayList<>();
            for (GraphRow r : page) {
                List<Object> row = new ArrayList<>();
                for (String col : q.projection()) {
                    row.add(r.column(col));
                }
                data.add(row);
            }
            out.put("data", Map.of("columns", cols, "rows", data));
        } else {
            List<Map<String, Object>> data = new ArrayList<>();
            for (GraphRow r : page) {
                data.add(r.toMap(q.projection()));
            }
            out.put("data", data);
        }
        out.put("facets", List.of());
        return ok(c, out, page.size());
    }

    // ------------------------------------------------------------------ wire

    private SimResponse ok(Call c, Object body, int items) {
        SimResponse.Builder b = SimResponse.status(200);
        for (SimResponse.Header h : c.quota) {
            b.header(h.name(), h.value());
        }
        b.items(items);
        b.header("x-ms-request-id", c.requestId).header("x-ms-correlation-request-id", c.requestId);
        try {
            return b.body("application/json; charset=utf-8", JSON.writeValueAsBytes(body)).build();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The quota headers of an admitted call: Resource Graph's user quota, or ARM's remaining reads of the
     * principal's bucket ({@code x-ms-ratelimit-remaining-tenant-reads} for a tenant-scope call such as
     * {@code GET /subscriptions}, else {@code ...-subscription-reads}) and, when the read was also charged to the
     * subscription-wide bucket, {@code ...-subscription-global-reads}.
     */
    private static List<SimResponse.Header> quotaHeaders(Route route, List<Admission> admissions) {
        if (admissions.isEmpty()) {
            return List.of();
        }
        Admission first = admissions.get(0);
        if (route.graph) {
            return graphHeaders(first.remaining(), first.fullAfterNanos());
        }
        List<SimResponse.Header> h = new ArrayList<>(2);
        h.add(new SimResponse.Header(route.tenant() ? TENANT_READS : SUBSCRIPTION_READS, Long.toString(first.remaining())));
        if (admissions.size() > 1) {
            h.add(new SimResponse.Header(GLOBAL_READS, Long.toString(admissions.get(1).remaining())));
        }
        return h;
    }

    private static List<SimResponse.Header> graphHeaders(long remaining, long resetNanos) {
        long s = TimeUnit.NANOSECONDS.toSeconds(resetNanos + 999_999_999L);
        return List.of(new SimResponse.Header("x-ms-user-quota-remaining", Long.toString(remaining)),
            new SimResponse.Header("x-ms-user-quota-resets-after",
                String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60)));
    }

    private static SimResponse error(AzureError e, String requestId, List<SimResponse.Header> extra) {
        SimResponse.Builder b = SimResponse.status(e.status()).header("x-ms-request-id", requestId)
            .header("x-ms-failure-cause", e.status() == 429 ? "gateway" : "service");
        if (e.retryAfterSeconds() > 0) {
            b.header("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        for (SimResponse.Header h : extra) {
            b.header(h.name(), h.value());
        }
        if (e.status() == 401) {
            b.header("WWW-Authenticate", "Bearer authorization_uri=\"https://login.microsoftonline.com/common\", "
                + "error=\"invalid_token\", error_description=\"The authentication failed because of missing "
                + "'Authorization' header.\"");
        }
        Map<String, Object> err = new LinkedHashMap<>();
        err.put("code", e.code());
        err.put("message", e.getMessage());
        try {
            return b.body("application/json; charset=utf-8", JSON.writeValueAsBytes(Map.of("error", err))).build();
        } catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }
}
