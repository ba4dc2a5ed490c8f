package io.cloudg.sim.gcp;

import com.google.cloud.asset.v1.Asset;
import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ListAssetsResponse;
import com.google.cloud.asset.v1.Resource;
import com.google.cloud.asset.v1.ResourceSearchResult;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.cloud.asset.v1.SearchAllResourcesResponse;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.core.Gate;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.core.QuotaPolicy;
import io.cloudg.sim.core.SimClock;
import io.cloudg.sim.core.Verdict;
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
                serve("ListAssets", req.getParent(), obs, parent -> listAssets(req, parent))))
            .addMethod(SEARCH_ALL_RESOURCES, ServerCalls.asyncUnaryCall((req, obs) ->
                serve("SearchAllResources", req.getScope(), obs, parent -> search(req, parent))))
            .build();
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

    private <R> void serve(String method, String parentName, StreamObserver<R> obs, Function<Parent, R> answer) {
        gate.counters().request();
        Parent parent;
        try {
            parent = resolve(parentName, method.equals("ListAssets") ? "parent" : "scope");
        } catch (StatusRuntimeException e) {
            gate.counters().error();
            obs.onError(e);
            return;
        }
        boolean strict = quotas.realism().strict();
        String consumer = strict ? consumerProject() : null;
        List<BucketRef> buckets = strict ? quotas.cloudAssetStrict(consumer, estate.organization(), method)
            : List.of(quotas.cloudAsset(parent.quotaScope(), method));
        Verdict v = gate.enter(new CallScope(Provider.GCP, parent.account(), "global", "cloudasset", method), buckets);
        Runnable reply;
        if (v instanceof Verdict.Throttled t) {
            StatusRuntimeException e = strict
                ? GcpErrors.quotaExceeded(method, t.refusedBy(), consumerName(consumer))
                : GcpErrors.rateLimited(method, parent.quotaScope(), parent.consumer(), t.retryAfterNanos());
            reply = () -> obs.onError(e);
        } else if (v instanceof Verdict.Faulted f) {
            StatusRuntimeException e = switch (f.kind()) {
                case ACCESS_DENIED -> GcpErrors.permissionDenied(parent.name());
                case RESET -> GcpErrors.unavailable("Connection reset by peer");
                case CLOSE -> GcpErrors.unavailable("Connection closed by peer without a response");
                default -> GcpErrors.unavailable("The service is currently unavailable.");
            };
            reply = () -> obs.onError(e);
        } else {
            R r;
            try {
                r = answer.apply(parent);
            } catch (StatusRuntimeException e) {
                reply = () -> obs.onError(e);
                schedule(reply, v.delayNanos());
                return;
            }
            reply = () -> {
                obs.onNext(r);
                obs.onCompleted();
            };
            schedule(reply, v.delayNanos() + gate.itemsNanos(items(r)));
            return;
        }
        schedule(reply, v.delayNanos());
    }

    /** The project charged for a strict call: {@code x-goog-user-project}, else the callers' own project. */
    private String consumerProject() {
        String header = CALL_USER_PROJECT.get();
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
                asset.setResource(Resource.newBuilder().setVersion("v1").setLocation(a.location())
                    .setDiscoveryName(a.assetType().substring(a.assetType().indexOf('/') + 1))
                    .setParent(a.parentName() == null ? "" : a.parentName())
                    .setData(data(a)));
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
        List<Listed> all = assets(parent, req.getAssetTypesList());
        int size = pageSize(req.getPageSize(), 100, 500);
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
            b.addResults(r);
        }
        if (page.more()) {
            b.setNextPageToken(page.nextToken());
        }
        return b.build();
    }

    /** A RESOURCE's data: its name and, when an estate generation set one, its labels. */
    private static Struct data(GcpAsset a) {
        Struct.Builder d = Struct.newBuilder().putFields("name", Value.newBuilder().setStringValue(a.displayName()).build());
        if (a.env() != null) {
            d.putFields("labels", Value.newBuilder().setStructValue(Struct.newBuilder().putFields("env",
                Value.newBuilder().setStringValue(a.env()).build())).build());
        }
        return d.build();
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
