package io.cloudg.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.util.Context;
import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.TaskLedger;
import java.net.URL;
import java.util.Locale;

/**
 * What one Azure request is attributed to: its governor scope and the task ledger its losses go to. A
 * collector puts it in the {@link Context} it passes to the SDK ({@link #context()}), because the SDK may
 * send a page or a retry from a thread the collector's ledger binding does not reach. A request without
 * one (an SDK call made without a context) is attributed by its URL ({@link #fromUrl}).
 *
 * @param scope {@code azure/<subscription>/<resource-provider-key>[/<operation>]}, or for tenant-wide and
 *        Resource Graph calls {@code azure/<principal or tenant>/...}
 * @param ledger where give-ups and circuit skips are recorded, or null
 */
public record AzureTarget(Scope scope, TaskLedger ledger) {
    static final String KEY = "cloudg.azure.target";
    private static final String GRAPH_PATH = "/providers/microsoft.resourcegraph/";

    /** A target in {@code scope} recording into the calling thread's ledger. */
    public static AzureTarget here(Scope scope) {
        return new AzureTarget(scope, TaskLedger.current());
    }

    /** The SDK context that carries this target to the pipeline's policies. */
    public Context context() {
        return new Context(KEY, this);
    }

    /** The target of a request in the pipeline: its context's, else one derived from the URL. */
    static AzureTarget of(HttpPipelineCallContext ctx, String tenantAccount) {
        Object t = ctx.getData(KEY).orElse(null);
        if (t instanceof AzureTarget) {
            return (AzureTarget) t;
        }
        return new AzureTarget(fromUrl(ctx.getHttpRequest().getUrl(), tenantAccount), TaskLedger.current());
    }

    /**
     * The scope of an ARM URL: {@code .../providers/Microsoft.Network/...} is {@code network},
     * {@code /subscriptions/S/resourcegroups} and the like {@code resources}; tenant-wide paths (the
     * subscription listing) and Resource Graph are attributed to {@code tenantAccount}.
     */
    static Scope fromUrl(URL url, String tenantAccount) {
        String path = url.getPath() == null ? "" : url.getPath();
        String lower = path.toLowerCase(Locale.ROOT);
        if (lower.startsWith(GRAPH_PATH)) {
            return Scope.of("azure", tenantAccount, null, "resourcegraph", null);
        }
        String[] seg = path.replaceAll("^/+|/+$", "").split("/");
        String account = seg.length >= 2 && seg[0].equalsIgnoreCase("subscriptions") ? seg[1] : tenantAccount;
        String service = "resources";
        for (int i = seg.length - 2; i >= 0; i--) {
            if (seg[i].equalsIgnoreCase("providers")) {
                service = AzureService.keyOf(seg[i + 1]);
                break;
            }
        }
        return Scope.of("azure", account, null, service, null);
    }
}
