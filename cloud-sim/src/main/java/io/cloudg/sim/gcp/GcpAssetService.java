package io.cloudg.sim.gcp;

import com.google.cloud.asset.v1.Asset;
import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ListAssetsResponse;
import com.google.cloud.asset.v1.Resource;
import com.google.cloud.asset.v1.ResourceSearchResult;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.cloud.asset.v1.SearchAllResourcesResponse;
import com.google.protobuf.Descriptors;
import com.google.protobuf.FieldMask;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import com.google.protobuf.util.Timestamps;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.gate.QuotaPolicy;
import io.cloudg.sim.core.SimClock;
import io.cloudg.sim.gate.Verdict;
import io.cloudg.sim.estate.GcpAsset;
import io.cloudg.sim.estate.GcpEstate;
import io.cloudg.sim.estate.GcpProject;
import io.cloudg.sim.estate.Ids;
import io.cloudg.sim.paging.BadPageToken;
import io.cloudg.sim.paging.Pager;
import io.cloudg.sim.quota.BucketRef;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/** {@code google.cloud.asset.v1.AssetService}: ListAssets and SearchAllResources. See the package documentation. */
public final class GcpAssetService {
    static final String SERVICE = "google.cloud.asset.v1.AssetService";
    /** SearchAllResources' page size when the request names none (or zero or less), and its cap. */
    static final int SEARCH_DEFAULT_PAGE = 100;
    static final int SEARCH_MAX_PAGE = 500;
    private static final String RESOURCE_MANAGER = "https://cloudresourcemanager.googleapis.com/v1/";
    private static final String RESOURCE_MANAGER_DISCOVERY = "https://cloudresourcemanager.googleapis.com/$discovery/rest";
    private static final Instant EPOCH = Instant.parse("2023-01-01T00:00:00Z");

    static final MethodDescriptor<ListAssetsRequest, ListAssetsResponse> LIST_ASSETS = unary("ListAssets",
        ListAssetsRequest.getDefaultInstance(), ListAssetsResponse.getDefaultInstance());
    static final MethodDescriptor<SearchAllResourcesRequest, SearchAllResourcesResponse> SEARCH_ALL_RESOURCES = unary(
        "SearchAllResources", SearchAllResourcesRequest.getDefaultInstance(), SearchAllResourcesResponse.getDefaultInstance());

    /** gRPC metadata naming the quota (consumer) project, as the Java client's {@code setQuotaProjectId} sends it. */
    public static final Metadata.Key<String> USER_PROJECT = Metadata.Key.of("x-goog-user-project",
        Metadata.ASCII_STRING_MARSHALLER);
    private static final Context.Key<String> CALL_USER_PROJECT = Context.key("x-goog-user-project");

    private final GcpEstate estate;
    private final Gate gate;
    private final QuotaPolicy quotas;
    private final SimClock clock;
    private final ScheduledExecutorService timer;
    private final String defaultConsumer;
    private final Pager pager;

    /**
     * @param consumerProject the project of the callers' credentials, charged in strict when a call names no
     *                        {@code x-goog-user-project}; null: the estate's first project
     */
    public GcpAssetService(GcpEstate estate, Gate gate, QuotaPolicy quotas, SimClock clock, ScheduledExecutorService timer,
                           String consumerProject, Pager pager) {
        this.pager = pager;
        this.estate = estate;
        this.gate = gate;
        this.quotas = quotas;
        this.clock = clock;
        this.timer = timer;
        this.defaultConsumer = consumerProject != null ? consumerProject
            : estate.projects().isEmpty() ? "cloud-sim-caller" : estate.projects().get(0).id();
    }

    private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> unary(String name, Q req, R resp) {
        return MethodDescriptor.<Q, R>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
            .setRequestMarshaller(ProtoUtils.marshaller(req)).setResponseMarshaller(ProtoUtils.marshaller(resp))
            .build();
    }

    /** The service, with an interceptor that hands each call's {@code x-goog-user-project} to the handlers. */
    public ServerServiceDefinition definition() {
        return ServerInterceptors.intercept(methods(), new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                              ServerCallHandler<Q, R> next) {
                String project = headers.get(USER_PROJECT);
                if (project == null) {
                    return next.startCall(call, headers);
                }
                return Contexts.interceptCall(Context.current().withValue(CALL_USER_PROJECT, project), call, headers, next);
            }
        });
    }

    private ServerServiceDefinition methods() {
        return ServerServiceDefinition.builder(SERVICE)
            .addMethod(LIST_ASSETS, ServerCalls.asyncUnaryCall((req, obs) ->
                reply(() -> listAssets(req, CALL_USER_PROJECT.get()), obs)))
            .addMethod(SEARCH_ALL_RESOURCES, ServerCalls.asyncUnaryCall((req, obs) ->
                reply(() -> searchAllResources(req, CALL_USER_PROJECT.get()), obs)))
            .build();
    }

    /**
     * What one call gets, whatever the transport: an answer or an error, sent after a delay.
     *
     * @param response   the answer; null when {@code error} is set
     * @param error      the gRPC error (its {@code google.rpc.Status} is the REST error body); null on success
     * @param reset      the connection is to be reset (an injected {@code reset} fault): gRPC reports it as
     *                   {@code UNAVAILABLE}, REST resets the TCP connection
     * @param delayNanos wait this long before answering (latency model, per-item latency, {@code slow} faults)
     */
    public record Outcome<R>(R response, StatusRuntimeException error, boolean reset, long delayNanos) {
        static <R> Outcome<R> ok(R response, long delayNanos) {
            return new Outcome<>(response, null, false, delayNanos);
        }

        static <R> Outcome<R> failed(StatusRuntimeException error, long delayNanos) {
            return new Outcome<>(null, error, false, delayNanos);
        }
    }

    /** ListAssets, as either transport asks it. */
    public Outcome<ListAssetsResponse> listAssets(ListAssetsRequest req, String userProject) {
        return call("ListAssets", req.getParent(), userProject, parent -> listAssets(req, parent));
    }

    /** SearchAllResources, as either transport asks it. */
    public Outcome<SearchAllResourcesResponse> searchAllResources(SearchAllResourcesRequest req, String userProject) {
        return call("SearchAllResources", req.getScope(), userProject, parent -> search(req, parent));
    }

    /** Answers a gRPC call; it counts as in flight ({@link io.cloudg.sim.core.InFlight}) until the answer goes. */
    private <R> void reply(java.util.function.Supplier<Outcome<R>> call, StreamObserver<R> obs) {
        gate.counters().request();
        io.cloudg.sim.core.InFlight inFlight = gate.counters().inFlight();
        io.cloudg.sim.core.InFlight.Request request = inFlight.begin();
        Outcome<R> o;
        try {
            o = call.get();
        } finally {
            inFlight.unbind();
        }
        Runnable answer = o.error() != null ? () -> obs.onError(o.error())
            : o.reset() ? () -> obs.onError(GcpErrors.unavailable("Connection reset by peer"))
            : () -> {
                obs.onNext(o.response());
                obs.onCompleted();
            };
        schedule(() -> {
            inFlight.end(request);
            answer.run();
        }, o.delayNanos());
    }

    /** A resolved parent or scope: one project or the organization. */
    private record Parent(String name, GcpProject project) {
        boolean organization() {
            return project == null;
        }

        String quotaScope() {
            return organization() ? name : "projects/" + project.id();
        }

        String account() {
            return organization() ? name : project.id();
        }

        String consumer() {
            return organization() ? name : "projects/" + project.number();
        }
    }

    private <R> Outcome<R> call(String method, String parentName, String userProject, Function<Parent, R> answer) {
        Parent parent;
        try {
            parent = resolve(parentName, method.equals("ListAssets") ? "parent" : "scope");
        } catch (StatusRuntimeException e) {
            gate.counters().error();
            return Outcome.failed(e, 0);
        }
        boolean strict = quotas.realism().strict();
        String consumer = strict ? consumerProject(userProject) : null;
        List<BucketRef> buckets = strict ? quotas.cloudAssetStrict(consumer, estate.organization(), method)
            : List.of(quotas.cloudAsset(parent.quotaScope(), method));
        Verdict v = gate.enter(new CallScope(Provider.GCP, parent.account(), "global", "cloudasset", method), buckets);
        if (v instanceof Verdict.Throttled t) {
            return Outcome.failed(strict
                ? GcpErrors.quotaExceeded(method, t.refusedBy(), consumerName(consumer))
                : GcpErrors.rateLimited(method, parent.quotaScope(), parent.consumer(), t.retryAfterNanos()), v.delayNanos());
        }
        if (v instanceof Verdict.Faulted f) {
            return switch (f.kind()) {
                case ACCESS_DENIED -> Outcome.failed(GcpErrors.permissionDenied(parent.name()), v.delayNanos());
                case RESET -> new Outcome<>(null, null, true, v.delayNanos());
                case CLOSE -> Outcome.failed(GcpErrors.unavailable("Connection closed by peer without a response"),
                    v.delayNanos());
                default -> Outcome.failed(GcpErrors.unavailable("The service is currently unavailable."), v.delayNanos());
            };
        }
        R r;
        try {
            r = answer.apply(parent);
        } catch (StatusRuntimeException e) {
            return Outcome.failed(e, v.delayNanos());
        }
        return Outcome.ok(r, v.delayNanos() + gate.itemsNanos(items(r)));
    }

    /** The project charged for a strict call: {@code x-goog-user-project}, else the callers' own project. */
    private String consumerProject(String header) {
        if (header == null || header.isBlank()) {
            return defaultConsumer;
        }
        GcpProject p = estate.project(header.trim());
        return p != null ? p.id() : header.trim();
    }

    /** {@code projects/NUMBER} as quota errors name a consumer (a stable made-up number outside the estate). */
    private String consumerName(String projectId) {
        if (projectId == null) {
            return null;
        }
        GcpProject p = estate.project(projectId);
        return "projects/" + (p != null ? Long.toString(p.number()) : new Ids(0xC0515L).digits("consumer/" + projectId, 12));
    }

    private void schedule(Runnable reply, long delayNanos) {
        if (delayNanos > 0) {
            timer.schedule(reply, delayNanos, TimeUnit.NANOSECONDS);
        } else {
            reply.run();
        }
    }

    private static int items(Object response) {
        if (response instanceof ListAssetsResponse l) {
            return l.getAssetsCount();
        }
        return response instanceof SearchAllResourcesResponse s ? s.getResultsCount() : 0;
    }

    private Parent resolve(String name, String field) {
        if (name == null || name.isEmpty()) {
            throw GcpErrors.invalidArgument("Request contains an invalid argument: " + field + " is required.");
        }
        if (name.startsWith("organizations/")) {
            if (!name.equals("organizations/" + estate.organization())) {
                throw GcpErrors.permissionDenied(name);
            }
            return new Parent(name, null);
        }
        if (name.startsWith("projects/")) {
            GcpProject p = estate.project(name.substring("projects/".length()));
            if (p == null) {
                throw GcpErrors.permissionDenied(name);
            }
            return new Parent(name, p);
        }
        throw GcpErrors.invalidArgument("Request contains an invalid argument: " + field + " '" + name
            + "' must be projects/{PROJECT}, or organizations/{ORGANIZATION} (folders are not part of the simulated estate).");
    }

    /** An asset as one listing sees it: its ordinal there (project first, for organization listings). */
    private record Listed(GcpAsset asset, long ordinal) {
    }

    private List<Listed> assets(Parent parent, List<String> types) {
        List<Listed> all = new ArrayList<>();
        if (parent.organization()) {
            for (GcpAsset a : estate.organizationAssets()) {
                all.add(new Listed(a, a.ordinal()));
            }
            List<GcpProject> projects = estate.projects();
            for (int i = 0; i < projects.size(); i++) {
                long base = (long) (i + 1) << 40;
                for (GcpAsset a : estate.assetsNow(projects.get(i))) {
                    all.add(new Listed(a, base + a.ordinal()));
                }
            }
        } else {
            for (GcpAsset a : estate.assetsNow(parent.project())) {
                all.add(new Listed(a, a.ordinal()));
            }
        }
        if (types.isEmpty()) {
            return all;
        }
        List<Pattern> patterns = new ArrayList<>();
        for (String t : types) {
            patterns.add(t.contains("*") ? Pattern.compile(t) : Pattern.compile(Pattern.quote(t)));
        }
        return all.stream().filter(l -> patterns.stream().anyMatch(p -> p.matcher(l.asset().assetType()).matches())).toList();
    }

    private Pager.Page<Listed> page(String key, List<Listed> all, String token, int size) {
        try {
            return pager.page(key, all, Listed::ordinal, token, size);
        } catch (BadPageToken e) {
            throw GcpErrors.invalidArgument("Request contains an invalid argument: invalid page_token.");
        }
    }

    private ListAssetsResponse listAssets(ListAssetsRequest req, Parent parent) {
        if (req.getReadTime().getSeconds() != 0 || req.getRelationshipTypesCount() > 0) {
            throw GcpErrors.invalidArgument("read_time and relationship_types are not supported by cloud-sim.");
        }
        List<Listed> all = assets(parent, req.getAssetTypesList());
        int size = pageSize(req.getPageSize(), 100, 1000);
        String key = "ListAssets|" + parent.name() + "|" + req.getAssetTypesList() + "|" + req.getContentType();
        Pager.Page<Listed> page = page(key, all, req.getPageToken(), size);
        ListAssetsResponse.Builder b = ListAssetsResponse.newBuilder().setReadTime(now());
        for (Listed l : page.items()) {
            GcpAsset a = l.asset();
            Asset.Builder asset = Asset.newBuilder().setName(a.name()).setAssetType(a.assetType())
                .addAllAncestors(ancestors(a)).setUpdateTime(ts(a));
            if (req.getContentType() == ContentType.RESOURCE) {
                asset.setResource(resource(a));
            } else if (req.getContentType() != ContentType.CONTENT_TYPE_UNSPECIFIED) {
                throw GcpErrors.invalidArgument("content_type " + req.getContentType() + " is not supported by cloud-sim "
                    + "(CONTENT_TYPE_UNSPECIFIED, RESOURCE).");
            }
            b.addAssets(asset);
        }
        if (page.more()) {
            b.setNextPageToken(page.nextToken());
        }
        return b.build();
    }

    private SearchAllResourcesResponse search(SearchAllResourcesRequest req, Parent parent) {
        if (!req.getQuery().isBlank()) {
            throw GcpErrors.invalidArgument("query '" + req.getQuery() + "' is not supported by cloud-sim (use asset_types).");
        }
        if (!req.getOrderBy().isBlank()) {
            throw GcpErrors.invalidArgument("order_by is not supported by cloud-sim.");
        }
        FieldMask mask = readMask(req);
        List<Listed> all = assets(parent, req.getAssetTypesList());
        // SearchAllResources caps page_size at 500 and takes zero or less as "the server's default"
        int size = req.getPageSize() <= 0 ? SEARCH_DEFAULT_PAGE : Math.min(req.getPageSize(), SEARCH_MAX_PAGE);
        String key = "SearchAllResources|" + parent.name() + "|" + req.getAssetTypesList();
        Pager.Page<Listed> page = page(key, all, req.getPageToken(), size);
        SearchAllResourcesResponse.Builder b = SearchAllResourcesResponse.newBuilder();
        for (Listed l : page.items()) {
            GcpAsset a = l.asset();
            ResourceSearchResult.Builder r = ResourceSearchResult.newBuilder().setName(a.name()).setAssetType(a.assetType())
                .setOrganization("organizations/" + estate.organization()).setDisplayName(a.displayName())
                .setLocation(a.location()).setState("ACTIVE").setCreateTime(ts(a)).setUpdateTime(ts(a));
            if (a.project() != null) {
                r.setProject("projects/" + a.project().number());
            }
            if (a.env() != null) {
                r.putLabels("env", a.env());
            }
            if (a.parentName() != null) {
                r.setParentFullResourceName(a.parentName()).setParentAssetType(a.parentType());
            }
            if (a.assetType().equals(GcpEstate.PROJECT_TYPE)) {
                r.setAdditionalAttributes(Struct.newBuilder().putFields("projectId", string(a.project().id())));
            }
            b.addResults(mask == null ? r.build() : masked(r.build(), mask));
        }
        if (page.more()) {
            b.setNextPageToken(page.nextToken());
        }
        return b.build();
    }

    /**
     * The request's {@code read_mask}, checked as Cloud Asset checks it: {@code *} or top-level fields of
     * {@code ResourceSearchResult} (named as in the proto or in JSON); null when the request has none (or an
     * empty one) or asks for every field.
     */
    private static FieldMask readMask(SearchAllResourcesRequest req) {
        List<String> paths = req.getReadMask().getPathsList();
        if (paths.isEmpty() || paths.equals(List.of("*"))) {
            return null; // none (an empty mask is none): every field but the ones Cloud Asset leaves out by default
        }
        FieldMask.Builder out = FieldMask.newBuilder();
        for (String path : req.getReadMask().getPathsList()) {
            Descriptors.FieldDescriptor f = resultField(path.trim());
            if (f == null) {
                throw GcpErrors.invalidArgument("Request contains an invalid argument: read_mask path '" + path
                    + "' is not a field of ResourceSearchResult; only '*' or a combination of its top-level fields "
                    + "can be specified.");
            }
            out.addPaths(f.getName());
        }
        return out.build();
    }

    private static Descriptors.FieldDescriptor resultField(String path) {
        for (Descriptors.FieldDescriptor f : ResourceSearchResult.getDescriptor().getFields()) {
            if (f.getName().equals(path) || f.getJsonName().equals(path)) {
                return f;
            }
        }
        return null;
    }

    /** A search result with only the fields of the mask. */
    private static ResourceSearchResult masked(ResourceSearchResult r, FieldMask mask) {
        ResourceSearchResult.Builder b = r.toBuilder();
        for (Descriptors.FieldDescriptor f : ResourceSearchResult.getDescriptor().getFields()) {
            if (!mask.getPathsList().contains(f.getName())) {
                b.clearField(f);
            }
        }
        return b.build();
    }

    /**
     * An asset's RESOURCE content. The organization and its projects carry what Cloud Asset reports for them
     * (Resource Manager v1's discovery document and REST URL, and in {@code data} the project's number, id,
     * lifecycle state and parent); other assets carry their name and labels.
     */
    private Resource resource(GcpAsset a) {
        String type = a.assetType();
        Resource.Builder r = Resource.newBuilder().setVersion("v1").setLocation(a.location())
            .setDiscoveryName(type.substring(type.indexOf('/') + 1))
            .setParent(a.parentName() == null ? "" : a.parentName());
        Struct.Builder d = Struct.newBuilder();
        if (type.equals(GcpEstate.PROJECT_TYPE)) {
            GcpProject p = a.project();
            r.setDiscoveryDocumentUri(RESOURCE_MANAGER_DISCOVERY).setResourceUrl(RESOURCE_MANAGER + "projects/" + p.id());
            d.putFields("projectNumber", string(Long.toString(p.number()))).putFields("projectId", string(p.id()))
                .putFields("lifecycleState", string("ACTIVE")).putFields("name", string(p.displayName()))
                .putFields("createTime", string(Timestamps.toString(ts(a))))
                .putFields("parent", Value.newBuilder().setStructValue(Struct.newBuilder()
                    .putFields("type", string("organization")).putFields("id", string(estate.organization()))).build());
        } else if (type.equals(GcpEstate.ORGANIZATION_TYPE)) {
            String org = "organizations/" + estate.organization();
            r.setDiscoveryDocumentUri(RESOURCE_MANAGER_DISCOVERY).setResourceUrl(RESOURCE_MANAGER + org);
            d.putFields("name", string(org)).putFields("displayName", string(a.displayName()))
                .putFields("lifecycleState", string("ACTIVE"))
                .putFields("creationTime", string(Timestamps.toString(ts(a))));
        } else {
            d.putFields("name", string(a.displayName()));
        }
        if (a.env() != null) {
            d.putFields("labels", Value.newBuilder().setStructValue(Struct.newBuilder().putFields("env", string(a.env())))
                .build());
        }
        return r.setData(d).build();
    }

    private static Value string(String s) {
        return Value.newBuilder().setStringValue(s).build();
    }

    private List<String> ancestors(GcpAsset a) {
        List<String> out = new ArrayList<>(2);
        if (a.project() != null) {
            out.add("projects/" + a.project().number());
        }
        out.add("organizations/" + estate.organization());
        return out;
    }

    private static int pageSize(int requested, int dflt, int max) {
        if (requested < 0 || requested > max) {
            throw GcpErrors.invalidArgument("Request contains an invalid argument: page_size must be from 0 to " + max + ".");
        }
        return requested == 0 ? dflt : requested;
    }

    private Timestamp now() {
        Instant i = clock.now();
        return Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build();
    }

    private static Timestamp ts(GcpAsset a) {
        long s = EPOCH.getEpochSecond() + Math.floorMod(a.name().hashCode(), 600L * 24 * 3600);
        return Timestamp.newBuilder().setSeconds(s).build();
    }
}
