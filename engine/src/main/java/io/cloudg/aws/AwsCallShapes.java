package io.cloudg.aws;

import io.cloudg.config.AwsSettings;
import io.cloudg.run.CallShape;
import io.cloudg.run.CallShapeSource;
import java.util.List;

/**
 * AWS's call shapes, from the collector catalog: a collector's operations after its listing (two listings when
 * it lists per parent) are its per-item calls, and the first of them is the one a quota bounds. Cloud Control's
 * sweep lists each of its types, found or not: the default types for the class path's source, the configured
 * ones ({@code aws.cloudcontrol_types}) for {@link #of(AwsSettings)}.
 */
public final class AwsCallShapes implements CallShapeSource {
    private final int cloudControlTypes;

    /** At the default settings (what {@link java.util.ServiceLoader} builds). */
    public AwsCallShapes() {
        this(AwsProvider.DEFAULT_CLOUDCONTROL_TYPES);
    }

    private AwsCallShapes(List<String> cloudControlTypes) {
        this.cloudControlTypes = Math.max(1, cloudControlTypes.size());
    }

    /** The shapes of a run configured with {@code settings}. */
    public static AwsCallShapes of(AwsSettings settings) {
        return new AwsCallShapes(AwsProvider.cloudControlTypes(settings));
    }

    @Override
    public String provider() {
        return "aws";
    }

    @Override
    public CallShape shapeOf(String collector) {
        if ("cloudcontrol".equals(collector)) {
            // a ListResources per type the sweep lists
            return new CallShape("cloudcontrol", "ListResources", 0, false, cloudControlTypes);
        }
        AwsCollector c = AwsCatalog.named(collector);
        if (c == null) {
            return null;
        }
        List<String> ops = c.operations();
        int listing = c.listsPerParent() ? 2 : 1;
        int perItem = Math.max(0, ops.size() - listing);
        return new CallShape(c.service(), perItem > 0 ? ops.get(listing) : ops.get(listing - 1), perItem,
                c.listsPerParent());
    }
}
