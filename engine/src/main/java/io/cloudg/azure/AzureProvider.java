package io.cloudg.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.resourcemanager.resources.fluent.models.SubscriptionInner;
import com.azure.resourcemanager.resources.models.SubscriptionState;
import io.cloudg.collect.CollectionTask;
import io.cloudg.collect.CollectorJob;
import io.cloudg.collect.Coverage;
import io.cloudg.collect.TaskSummary;
import io.cloudg.config.AzureSettings;
import io.cloudg.inventory.CoverageRecord;
import io.cloudg.inventory.CoverageStatus;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.TaskLedger;
import io.cloudg.resilience.Governor;
import io.cloudg.run.ProviderPlan;
import io.cloudg.run.ProviderPlanner;
import io.cloudg.run.Endpoints;
import io.cloudg.config.StartupException;
import io.cloudg.run.TaskTarget;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans an Azure map: the subscriptions ({@code azure.subscriptions}, else ARM's subscription listing,
 * governed like any call), then one task per subscription: {@code azure_resources} (the subscription and
 * its resource groups), one {@code azure_<service>} job per {@link AzureCatalog} service and the
 * {@code azure_other} sweep, through ARM or Resource Graph ({@code azure.resource_graph}), closed by the
 * {@code azure_full} summary ({@link AzureFullSummary}).
 *
 * <p>A subscription listing that fails is recorded FAILED, with ARM's reason, in the discovery record and the
 * map goes on without Azure tasks (the other providers are mapped; the run ends incomplete): an answer that
 * refuses it (403 {@code AuthorizationFailed}), throttling or a transient fault that outlasted the retries.
 * Only credentials that get no token, or a token ARM rejects (401), and nothing listening at
 * {@code azure.endpoint_url}, mean the map cannot start, as for AWS's first call.
 */
public final class AzureProvider {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.azure");

    private final AzureSettings settings;
    private final AzureClients clients;
    private final AzureListings listings;
    private final Coverage coverage;

    public AzureProvider(AzureSettings settings, AzureClients clients) {
        this.settings = settings;
        this.clients = clients;
        this.coverage = Coverage.of(clients.governor());
        this.listings = new AzureListings(clients);
    }

    /** The planner {@code InventoryMapper} registers for {@code azure}. */
    public static ProviderPlanner planner(AzureSettings settings, Governor governor) {
        // the HTTP client is the SDK's shared one: nothing of the run's own to release
        return ProviderPlanner.of(new AzureProvider(settings, new AzureClients(settings, governor))::plan, () -> { });
    }

    public ProviderPlan plan() {
        List<CoverageRecord> discovery = new ArrayList<>();
        if (settings.endpointUrl() != null) {
            Endpoints.requireReachable("azure.endpoint_url", settings.endpointUrl());
        }
        List<AzureSubscription> subs = new ArrayList<>();
        if (!settings.subscriptions().isEmpty()) {
            settings.subscriptions().forEach(id -> subs.add(new AzureSubscription(id, null)));
        } else {
            discovery.add(new CoverageRecord("azure", clients.tenantAccount(), "discovery", List.of(listSubscriptions(subs))));
        }
        LOG.info("Azure: {} subscription(s), resources through {}", subs.size(),
                settings.resourceGraph() ? "Resource Graph" : "ARM");
        List<CollectionTask> tasks = new ArrayList<>();
        for (AzureSubscription sub : subs) {
            tasks.add(new CollectionTask("azure", sub.id(), "global", jobs(sub), summary()));
        }
        return new ProviderPlan("azure", tasks, discovery);
    }

    /**
     * A fleet worker's side: the jobs of {@code target} (all of them when it names none) for its
     * subscription, built with this process's clients. A target carries a part of a subscription's jobs,
     * so the task has no {@code azure_full} summary: whoever assembles the subscription's record from its
     * parts applies {@link #summary()} to the whole.
     */
    public CollectionTask taskFor(TaskTarget target) {
        if (!"azure".equals(target.provider())) {
            throw new IllegalArgumentException("not an Azure task: " + target.recordId());
        }
        List<CollectorJob> jobs = jobs(new AzureSubscription(target.accountId(), null)).stream()
                .filter(j -> target.collectors().isEmpty() || target.collectors().contains(j.service())).toList();
        return new CollectionTask("azure", target.accountId(), target.region(), jobs);
    }

    /** The {@code azure_full} summary of a subscription's record. */
    public static TaskSummary summary() {
        return new AzureFullSummary();
    }

    List<CollectorJob> jobs(AzureSubscription sub) {
        List<CollectorJob> jobs = new ArrayList<>();
        jobs.add(new CollectorJob(AzureCatalog.RESOURCES_ENTRY, listings.subscriptionAndGroups(sub)));
        for (AzureService s : AzureCatalog.SERVICES) {
            jobs.add(new CollectorJob(s.coverageName(),
                    settings.resourceGraph() ? listings.graphService(sub, s) : listings.armService(sub, s)));
        }
        jobs.add(new CollectorJob(AzureCatalog.OTHER_ENTRY,
                settings.resourceGraph() ? listings.graphOther(sub) : listings.armOther(sub)));
        return jobs;
    }

    private ServiceCoverage listSubscriptions(List<AzureSubscription> into) {
        TaskLedger outer = TaskLedger.current();
        TaskLedger ledger = TaskLedger.create("azure/" + clients.tenantAccount() + "/subscriptions",
                outer == null ? null : outer.run());
        Scope scope = Scope.of("azure", clients.tenantAccount(), null, "resources", "ListSubscriptions");
        try (TaskLedger.Binding b = ledger.bind()) {
            for (SubscriptionInner s : clients.subscriptions().list(new AzureTarget(scope, ledger).context())) {
                if (s.state() != SubscriptionState.DISABLED && s.state() != SubscriptionState.DELETED) {
                    into.add(new AzureSubscription(s.subscriptionId(), s.displayName()));
                }
            }
            return ledger.incompleteReason()
                    .map(r -> new ServiceCoverage("subscriptions", CoverageStatus.PARTIAL, into.size(), r))
                    .orElse(ServiceCoverage.success("subscriptions", into.size()));
        } catch (RuntimeException e) {
            if (credentialsFailed(e)) {
                throw new StartupException("Azure: cannot list subscriptions (" + oneLine(e) + "); check the credentials"
                        + (settings.endpointUrl() == null ? "" : " and azure.endpoint_url " + settings.endpointUrl()), e);
            }
            String error = coverage.errorText(e, ledger);
            LOG.warn("Azure: listing subscriptions failed, mapping no subscription: {}", error);
            into.clear();
            return new ServiceCoverage("subscriptions", CoverageStatus.FAILED, 0, error);
        }
    }

    /**
     * Whether {@code e} says the credentials themselves do not work: no token could be had
     * ({@link ClientAuthenticationException}, {@code CredentialUnavailableException} among them), or ARM
     * rejected the token (401). A refusal of an authenticated caller (403) is not: it is what the map reports.
     */
    static boolean credentialsFailed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ClientAuthenticationException) {
                return true;
            }
            if (t instanceof HttpResponseException h && h.getResponse() != null && h.getResponse().getStatusCode() == 401) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
