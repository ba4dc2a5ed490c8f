package io.cloudg.azure;

import com.azure.core.http.rest.Response;
import com.azure.resourcemanager.resourcegraph.models.QueryRequest;
import com.azure.resourcemanager.resourcegraph.models.QueryRequestOptions;
import com.azure.resourcemanager.resourcegraph.models.QueryResponse;
import com.azure.resourcemanager.resourcegraph.models.ResultFormat;
import com.azure.resourcemanager.resources.fluent.models.GenericResourceExpandedInner;
import com.azure.resourcemanager.resources.fluent.models.ResourceGroupInner;
import com.azure.resourcemanager.resources.fluent.models.SubscriptionInner;
import io.cloudg.collect.CollectorBody;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSink;
import io.cloudg.resilience.spi.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The collector bodies of one subscription. Each passes its scope and the job's ledger to the SDK in a
 * {@link AzureTarget} context, so that every page and every retry is governed in the right scope and a
 * give-up lands in the right coverage entry. A listing error is not caught: it escapes, and the job's
 * entry is FAILED with the error ({@code throttled: ...} when throttling wore it down).
 *
 * <p>Assets: type is the ARM type, id the full ARM id, account the subscription id, region the location
 * ({@code global} for the subscription itself), service the resource-provider namespace.
 */
final class AzureListings {
    private static final int GRAPH_PAGE = 1000;
    private static final String GRAPH_COLUMNS = " | project id, name, type, location, tags";

    private final AzureClients clients;

    AzureListings(AzureClients clients) {
        this.clients = clients;
    }

    /** {@code azure_resources}: the subscription itself and its resource groups (ARM). */
    CollectorBody subscriptionAndGroups(AzureSubscription sub) {
        return sink -> {
            String name = sub.displayName();
            if (name == null) {
                Scope get = Scope.of("azure", sub.id(), null, "resources", "GetSubscription");
                Response<SubscriptionInner> r = clients.subscriptions().getWithResponse(sub.id(), AzureTarget.here(get).context());
                name = r.getValue().displayName();
            }
            sink.accept(asset(sub.id(), "global", AzureCatalog.SUBSCRIPTION_TYPE, sub.armId(), name, Map.of()));
            Scope list = Scope.of("azure", sub.id(), null, "resources", "ListResourceGroups");
            for (ResourceGroupInner g : clients.arm(sub.id()).getResourceGroups().list(null, null, AzureTarget.here(list).context())) {
                sink.accept(asset(sub.id(), g.location(), AzureCatalog.RESOURCE_GROUP_TYPE, g.id(), g.name(), g.tags()));
            }
        };
    }

    /** {@code azure_<service>} through ARM: one generic listing per type ({@code $filter=resourceType eq}). */
    CollectorBody armService(AzureSubscription sub, AzureService service) {
        return sink -> {
            Scope scope = Scope.of("azure", sub.id(), null, service.key(), "ListResources");
            for (String type : service.types()) {
                listArm(sub, scope, "resourceType eq '" + type + "'", sink, t -> true);
            }
        };
    }

    /** {@code azure_other} through ARM: everything the catalog does not list. */
    CollectorBody armOther(AzureSubscription sub) {
        return sink -> listArm(sub, Scope.of("azure", sub.id(), null, "resources", "ListResources"), null, sink,
                t -> !AzureCatalog.covers(t));
    }

    private void listArm(AzureSubscription sub, Scope scope, String filter, AssetSink sink,
                         java.util.function.Predicate<String> keep) {
        for (GenericResourceExpandedInner r : clients.arm(sub.id()).getResources().list(filter, null, null,
                AzureTarget.here(scope).context())) {
            if (keep.test(r.type())) {
                sink.accept(asset(sub.id(), r.location(), r.type(), r.id(), r.name(), r.tags()));
            }
        }
    }

    /** {@code azure_<service>} through Resource Graph: one query for all the service's types, paged. */
    CollectorBody graphService(AzureSubscription sub, AzureService service) {
        String in = service.types().stream().map(t -> "'" + t.toLowerCase(Locale.ROOT) + "'").collect(Collectors.joining(", "));
        return sink -> listGraph(sub, "Resources | where type in~ (" + in + ")" + GRAPH_COLUMNS, sink);
    }

    /** {@code azure_other} through Resource Graph. */
    CollectorBody graphOther(AzureSubscription sub) {
        String notIn = AzureCatalog.allTypes().stream().map(t -> "type !~ '" + t.toLowerCase(Locale.ROOT) + "'")
                .collect(Collectors.joining(" and "));
        return sink -> listGraph(sub, "Resources | where " + notIn + GRAPH_COLUMNS, sink);
    }

    private void listGraph(AzureSubscription sub, String query, AssetSink sink) {
        Scope scope = Scope.of("azure", clients.tenantAccount(), null, "resourcegraph", "ResourcesQuery");
        String skip = null;
        do {
            QueryRequest q = new QueryRequest().withSubscriptions(List.of(sub.id())).withQuery(query)
                    .withOptions(new QueryRequestOptions().withTop(GRAPH_PAGE).withSkipToken(skip)
                            .withResultFormat(ResultFormat.OBJECT_ARRAY));
            QueryResponse page = clients.graph().resourcesWithResponse(q, AzureTarget.here(scope).context()).getValue();
            for (Object row : rows(page)) {
                if (row instanceof Map) {
                    Map<?, ?> m = (Map<?, ?>) row;
                    String id = text(m.get("id"));
                    String type = AzureIds.typeOf(id);
                    sink.accept(asset(sub.id(), text(m.get("location")), type != null ? type : text(m.get("type")), id,
                            text(m.get("name")), tags(m.get("tags"))));
                }
            }
            skip = page.skipToken();
        } while (skip != null && !skip.isEmpty());
    }

    private static List<?> rows(QueryResponse page) {
        Object data = page.data();
        return data instanceof List ? (List<?>) data : List.of();
    }

    private static String text(Object o) {
        return o == null ? null : o.toString();
    }

    private static Map<String, String> tags(Object o) {
        if (!(o instanceof Map)) {
            return Map.of();
        }
        return ((Map<?, ?>) o).entrySet().stream().filter(e -> e.getKey() != null && e.getValue() != null)
                .collect(Collectors.toMap(e -> e.getKey().toString(), e -> e.getValue().toString(), (a, b) -> a));
    }

    static Asset asset(String subscription, String location, String type, String id, String name, Map<String, String> tags) {
        String region = location == null || location.isBlank() ? "global" : location;
        return new Asset("azure", subscription, region, AzureIds.namespaceOf(type), type, id, name, null, tags, Map.of());
    }
}
