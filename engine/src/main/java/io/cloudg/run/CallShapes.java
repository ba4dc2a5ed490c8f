package io.cloudg.run;

import io.cloudg.aws.AwsCatalog;
import io.cloudg.aws.AwsCollector;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link CallShape} of each provider's collectors. AWS's come from the collector catalog (an entry's
 * operations after its listing are its per-item calls); a collector the catalog does not know (Azure's
 * and GCP's listings, sweeps) is a plain listing of a service named after it.
 */
public final class CallShapes {
    private static final Map<String, CallShape> CACHE = new ConcurrentHashMap<>();

    private CallShapes() {
    }

    public static CallShape of(String provider, String collector) {
        return CACHE.computeIfAbsent(provider + "/" + collector, k -> shape(provider, collector));
    }

    private static CallShape shape(String provider, String collector) {
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
