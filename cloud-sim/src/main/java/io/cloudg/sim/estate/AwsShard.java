package io.cloudg.sim.estate;

import io.cloudg.sim.core.AwsType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One account x region of the AWS estate, or one account's global part (IAM, S3, Route 53, CloudFront):
 * every resource that ever exists there (churned ones included), per type in ordinal order. Generated on
 * demand from the seed, so a shard dropped from the cache and generated again is the same shard.
 */
final class AwsShard {
    private final EnumMap<AwsType, List<AwsResource>> byType = new EnumMap<>(AwsType.class);
    private final EnumMap<AwsType, Boolean> churns = new EnumMap<>(AwsType.class);
    private final Map<String, AwsResource> byId = new HashMap<>();

    AwsShard(List<AwsResource> resources) {
        for (AwsResource r : resources) {
            byType.computeIfAbsent(r.type(), t -> new ArrayList<>()).add(r);
            byId.put(r.type().ordinal() + "/" + r.id(), r);
            if (!r.life().stable()) {
                churns.put(r.type(), true);
            }
        }
        byType.replaceAll((t, l) -> {
            l.sort((a, b) -> Long.compare(a.ordinal(), b.ordinal()));
            return List.copyOf(l);
        });
    }

    /** Every resource of {@code type} that ever exists here, in ordinal order. */
    List<AwsResource> all(AwsType type) {
        return byType.getOrDefault(type, List.of());
    }

    /** The resources of {@code type} that exist {@code elapsedNanos} after the start, in ordinal order. */
    List<AwsResource> at(AwsType type, long elapsedNanos) {
        List<AwsResource> all = all(type);
        if (!churns.containsKey(type)) {
            return all;
        }
        List<AwsResource> out = new ArrayList<>(all.size());
        for (AwsResource r : all) {
            if (r.existsAt(elapsedNanos)) {
                out.add(r);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The resource of {@code type} with listing id {@code id} ever held here, or null. */
    AwsResource find(AwsType type, String id) {
        return byId.get(type.ordinal() + "/" + id);
    }

    /** Every resource, type by type. */
    Iterable<List<AwsResource>> lists() {
        return byType.values();
    }
}
