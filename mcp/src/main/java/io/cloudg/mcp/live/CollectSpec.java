package io.cloudg.mcp.live;

import java.util.List;

/**
 * What one live collection covers.
 *
 * @param providers the providers to map
 * @param regions AWS regions (empty: the configuration's)
 * @param collectors only these collectors (empty: the configuration's)
 * @param sweeps whether the Cloud Control and tagging sweeps run (when the configuration has them on)
 * @param slice one provider/account/region/service slice instead of a map, or null
 */
public record CollectSpec(List<String> providers, List<String> regions, List<String> collectors, boolean sweeps,
                          Slice slice) {
    public CollectSpec {
        providers = List.copyOf(providers);
        regions = List.copyOf(regions);
        collectors = List.copyOf(collectors);
    }

    /**
     * One slice: a single collector in one account and region ({@code global} for global services).
     *
     * @param provider aws, azure or gcp
     * @param account the account (subscription, project)
     * @param region the region, or {@code global}
     * @param service the collector ({@code s3_buckets}, {@code vpc}...)
     */
    public record Slice(String provider, String account, String region, String service) {
    }

    public static CollectSpec map(List<String> providers, List<String> regions) {
        return new CollectSpec(providers, regions, List.of(), true, null);
    }

    public static CollectSpec only(List<String> providers, List<String> collectors) {
        return new CollectSpec(providers, List.of(), collectors, false, null);
    }

    public static CollectSpec slice(Slice s) {
        return new CollectSpec(List.of(s.provider()), List.of(), List.of(s.service()), false, s);
    }
}
