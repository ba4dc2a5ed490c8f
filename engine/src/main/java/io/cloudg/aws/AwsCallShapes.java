package io.cloudg.aws;

import io.cloudg.run.CallShape;
import io.cloudg.run.CallShapeSource;
import java.util.List;

/**
 * AWS's call shapes, from the collector catalog: a collector's operations after its listing (two listings when
 * it lists per parent) are its per-item calls, and the first of them is the one a quota bounds. Cloud Control's
 * sweep lists each of its types, found or not.
 */
public final class AwsCallShapes implements CallShapeSource {
    @Override
    public String provider() {
        return "aws";
    }

    @Override
    public CallShape shapeOf(String collector) {
        if ("cloudcontrol".equals(collector)) {
            // a ListResources per type (the default types: aws.cloudcontrol_types can name others)
            return new CallShape("cloudcontrol", "ListResources", 0, false,
                    Math.max(1, AwsProvider.DEFAULT_CLOUDCONTROL_TYPES.size()));
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
