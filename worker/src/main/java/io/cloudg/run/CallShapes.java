package io.cloudg.run;

import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import io.cloudg.aws.AwsProvider;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CallShape} of each provider's collectors. AWS's come from the collector catalog (an entry's
 * operations after its listing are its per-item calls); Cloud Control's sweep lists each of its types; a
 * collector the catalog does not know (Azure's and GCP's listings, the other sweeps) is a plain listing of a
 * service named after it.
 */
public final class CallShapes {
    private static final Map<String, CallShape> CACHE = new ConcurrentHashMap<>();

    private CallShapes() {
    }

    public static CallShape of(String provider, String collector) {
        return CACHE.computeIfAbsent(provider + "/" + collector, k -> shape(provider, collector));
    }

    private static CallShape shape(String provider, String collector) {
        if ("aws".equals(provider) && "cloudcontrol".equals(collector)) {
            // a ListResources per type, found or not (the default types: aws.cloudcontrol_types can name others)
            return new CallShape("cloudcontrol", "ListResources", 0, false,
                    Math.max(1, AwsProvider.DEFAULT_CLOUDCONTROL_TYPES.size()));
        }
        if ("aws".equals(provider)) {
            AwsCollector c = AwsCatalog.named(collector);
            if (c != null) {
                List<String> ops = c.operations();
                int listing = c.listsPerParent() ? 2 : 1;
                int perItem = Math.max(0, ops.size() - listing);
                return new CallShape(c.service(), perItem > 0 ? ops.get(listing) : ops.get(listing - 1), perItem,
                        c.listsPerParent());
            }
        }
        return CallShape.listing(collector, null);
    }
}
