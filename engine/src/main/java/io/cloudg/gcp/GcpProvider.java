package io.cloudg.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.asset.v1.Asset;
import com.google.cloud.asset.v1.ContentType;
import com.google.cloud.asset.v1.ListAssetsRequest;
import com.google.cloud.asset.v1.ListAssetsResponse;
import com.google.cloud.asset.v1.ResourceSearchResult;
import com.google.cloud.asset.v1.SearchAllResourcesRequest;
import com.google.cloud.asset.v1.SearchAllResourcesResponse;
import com.google.protobuf.Value;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorBody;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.TruncatedListingException;
import io.cloudg.config.GcpSettings;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.Governor;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.ProviderPlanner;
import io.cloudg.run.Endpoints;
import io.cloudg.config.StartupException;
import io.cloudg.run.TaskTarget;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans a GCP map: the projects ({@code gcp.projects}, plus with {@code gcp.organization} every active
 * project the organization-level SearchAllResources finds), then one task per project listing all its
 * assets (ListAssets, resource content, all types) and one for the organization listing the assets that
 * belong to the organization itself (the Organization and its Folders). Each listing is one coverage entry,
 * {@code cloudasset}; one cut short by throttling keeps its pages and is PARTIAL with
 * {@code listing truncated: throttled: ...}.
 *
 * <p>Discovery that fails is recorded in the organization's discovery record and the map goes on with the
 * projects known ({@code gcp.projects} and those listed before the failure), the organization's own listing
 * and the other providers (the run ends incomplete): refused ({@code PERMISSION_DENIED}), FAILED with Cloud
 * Asset's reason; cut short by throttling or a transient fault that outlasted the retries, PARTIAL with the
 * projects found ({@code listing truncated: throttled: ...}). Only credentials that get no token, or a token Google rejects
 * ({@code UNAUTHENTICATED}), and nothing listening at {@code gcp.endpoint_url}, mean the map cannot start,
 * as for Azure's subscription listing and AWS's first call.
 */
public final class GcpProvider {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.gcp");
    public static final String ENTRY = "cloudasset";
    public static final String PROJECT_TYPE = "cloudresourcemanager.googleapis.com/Project";
    static final List<String> ORGANIZATION_TYPES = List.of("cloudresourcemanager.googleapis.com/Organization",
            "cloudresourcemanager.googleapis.com/Folder");
    private static final int LIST_ASSETS_MAX_PAGE = 1000;
    private static final int SEARCH_MAX_PAGE = 500;
    private static final Pattern PROJECT_ID = Pattern.compile("[a-z][a-z0-9-]{4,28}[a-z0-9]");

    private final GcpSettings settings;
    private final GcpClients clients;
    private final Governor governor;

    public GcpProvider(GcpSettings settings, GcpClients clients, Governor governor) {
        this.settings = settings;
        this.clients = clients;
        this.governor = governor;
    }

    /** The planner {@code InventoryMapper} registers for {@code gcp}. */
    public static ProviderPlanner planner(GcpSettings settings, Governor governor, int workers) {
        GcpClients clients = new GcpClients(settings, governor, workers);
        return ProviderPlanner.of(new GcpProvider(settings, clients, governor)::plan, clients::close);
    }

    public ProviderPlan plan() {
        if (settings.organization() == null && settings.projects().isEmpty()) {
            throw new StartupException("GCP: nothing to map: set gcp.organization or gcp.projects");
        }
        if (settings.endpointUrl() != null) {
            String target = settings.endpointTarget();
            int colon = target.lastIndexOf(':');
            Endpoints.requireReachable("gcp.endpoint_url", settings.endpointUrl(), colon < 0 ? target : target.substring(0, colon),
                    colon < 0 ? 443 : Integer.parseInt(target.substring(colon + 1).replaceAll("/.*$", "")));
        }
        Map<String, GcpParent> projects = new LinkedHashMap<>();
        settings.projects().forEach(id -> projects.put(id, GcpParent.project(id)));
        List<CoverageRecord> discovery = new ArrayList<>();
        List<CollectionTask> tasks = new ArrayList<>();
        if (settings.organization() != null) {
            GcpParent org = GcpParent.organization(settings.organization());
            discovery.add(new CoverageRecord("gcp", org.account(), "discovery", List.of(discoverProjects(org, projects))));
            tasks.add(new CollectionTask("gcp", org.account(), "global",
                    List.of(new CollectorJob(ENTRY, listAssets(org, ORGANIZATION_TYPES)))));
        }
        for (GcpParent p : projects.values()) {
            tasks.add(new CollectionTask("gcp", p.account(), "global", List.of(new CollectorJob(ENTRY, listAssets(p, List.of())))));
        }
        LOG.info("GCP: {} project(s){}", projects.size(), settings.organization() == null ? "" : " and the organization");
        return new ProviderPlan("gcp", tasks, discovery);
    }

    /**
     * A fleet worker's side: the listing of {@code target}'s project, or of the organization's own assets
     * when its account is {@code organizations/N}, built with this process's client.
     */
    public CollectionTask taskFor(TaskTarget target) {
        if (!"gcp".equals(target.provider())) {
            throw new IllegalArgumentException("not a GCP task: " + target.recordId());
        }
        String account = target.accountId();
        boolean org = account.startsWith("organizations/");
        GcpParent parent = org ? GcpParent.organization(account.substring("organizations/".length()))
                : GcpParent.project(account);
        List<CollectorJob> jobs = target.collectors().isEmpty() || target.collectors().contains(ENTRY)
                ? List.of(new CollectorJob(ENTRY, listAssets(parent, org ? ORGANIZATION_TYPES : List.of()))) : List.of();
        return new CollectionTask("gcp", account, target.region(), jobs);
    }

    /** ListAssets of {@code parent} (all types when {@code types} is empty), with the resource's location. */
    CollectorBody listAssets(GcpParent parent, List<String> types) {
        int size = pageSize(LIST_ASSETS_MAX_PAGE);
        GcpListing<ListAssetsRequest, ListAssetsResponse> listing = new GcpListing<>(governor, clients.quotas(),
                "ListAssets", clients.client().listAssetsCallable(),
                token -> ListAssetsRequest.newBuilder().setParent(parent.name()).addAllAssetTypes(types)
                        .setContentType(ContentType.RESOURCE).setPageSize(size).setPageToken(token).build(),
                ListAssetsResponse::getNextPageToken);
        return sink -> listing.run(page -> {
            for (Asset a : page.getAssetsList()) {
                sink.accept(GcpAssets.of(a, parent.account()));
            }
        });
    }

    /** The organization's active projects, through SearchAllResources of the Project type. */
    private ServiceCoverage discoverProjects(GcpParent org, Map<String, GcpParent> into) {
        TaskLedger outer = TaskLedger.current();
        TaskLedger ledger = TaskLedger.create("gcp/" + org.account() + "/projects", outer == null ? null : outer.run());
        int size = pageSize(SEARCH_MAX_PAGE);
        GcpListing<SearchAllResourcesRequest, SearchAllResourcesResponse> listing = new GcpListing<>(governor,
                clients.quotas(), "SearchAllResources", clients.client().searchAllResourcesCallable(),
                token -> SearchAllResourcesRequest.newBuilder().setScope(org.name()).addAssetTypes(PROJECT_TYPE)
                        .setPageSize(size).setPageToken(token).build(),
                SearchAllResourcesResponse::getNextPageToken);
        int before = into.size();
        Coverage coverage = Coverage.of(governor);
        try (TaskLedger.Binding b = ledger.bind()) {
            listing.run(page -> {
                for (ResourceSearchResult r : page.getResultsList()) {
                    if (r.getState().isEmpty() || r.getState().equals("ACTIVE")) {
                        String id = projectId(r);
                        into.putIfAbsent(id, GcpParent.project(id));
                    }
                }
            });
            int found = into.size() - before;
            return ledger.incompleteReason().map(reason -> new ServiceCoverage("projects", CoverageStatus.PARTIAL, found, reason))
                    .orElse(ServiceCoverage.success("projects", found));
        } catch (TruncatedListingException e) {
            ServiceCoverage cut = coverage.failed("projects", into.size() - before, e, ledger);
            LOG.warn("GCP: discovering the organization's projects was cut short, mapping the {} project(s) known: {}",
                    into.size(), cut.error());
            return cut;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartupException("GCP: interrupted while discovering projects", e);
        } catch (RuntimeException e) {
            if (credentialsFailed(e)) {
                throw new StartupException("GCP: cannot list the projects of " + org.name() + " (" + oneLine(e)
                        + "); check the credentials" + (settings.endpointUrl() == null ? "" : " and gcp.endpoint_url "
                        + settings.endpointUrl()), e);
            }
            String error = coverage.errorText(e, ledger);
            LOG.warn("GCP: listing the projects of {} failed, mapping the {} project(s) known: {}", org.name(),
                    into.size(), error);
            return new ServiceCoverage("projects", CoverageStatus.FAILED, into.size() - before, error);
        }
    }

    /**
     * Whether {@code e} says the credentials themselves do not work: {@code UNAUTHENTICATED}, which is how
     * Google rejects a token and how gRPC reports credentials that could not get one. A refusal of an
     * authenticated caller ({@code PERMISSION_DENIED}) is not: it is what the map reports. (Credentials that
     * cannot be found at all stop the start earlier, when the client is built.)
     */
    static boolean credentialsFailed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ApiException a && a.getStatusCode().getCode() == StatusCode.Code.UNAUTHENTICATED) {
                return true;
            }
            if ((t instanceof StatusRuntimeException || t instanceof StatusException)
                    && Status.fromThrowable(t).getCode() == Status.Code.UNAUTHENTICATED) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /**
     * A project's id from its search result: Cloud Asset puts it in {@code additionalAttributes.projectId};
     * without one, a display name shaped like a project id is taken, else the project number (which the
     * API accepts wherever it takes an id).
     */
    static String projectId(ResourceSearchResult r) {
        Value v = r.getAdditionalAttributes().getFieldsOrDefault("projectId", null);
        if (v != null && v.hasStringValue() && !v.getStringValue().isEmpty()) {
            return v.getStringValue();
        }
        if (PROJECT_ID.matcher(r.getDisplayName()).matches()) {
            return r.getDisplayName();
        }
        String p = r.getProject().isEmpty() ? GcpAssets.lastSegment(r.getName()) : r.getProject();
        return p.startsWith("projects/") ? p.substring("projects/".length()) : p;
    }

    private int pageSize(int max) {
        return settings.pageSize() == null ? max : Math.min(max, settings.pageSize());
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
