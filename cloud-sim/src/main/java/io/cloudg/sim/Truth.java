package io.cloudg.sim;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Every asset the simulated estate holds; served as JSON at {@code GET /_sim/truth}. */
public final class Truth {
    private final List<Asset> assets;

    public Truth(List<Asset> assets) {
        this.assets = List.copyOf(assets);
    }

    public List<Asset> assets() {
        return assets;
    }

    public int size() {
        return assets.size();
    }

    public List<Asset> select(Predicate<Asset> p) {
        return assets.stream().filter(p).toList();
    }

    /** Ids of one type in one account and region. */
    public Set<String> ids(String provider, String account, String region, String type) {
        return assets.stream()
            .filter(a -> a.provider().equals(provider) && a.account().equals(account) && a.region().equals(region)
                && a.type().equals(type))
            .map(Asset::id).collect(Collectors.toSet());
    }

    /** Ids of one type in one account, any region. */
    public Set<String> ids(String provider, String account, String type) {
        return assets.stream()
            .filter(a -> a.provider().equals(provider) && a.account().equals(account) && a.type().equals(type))
            .map(Asset::id).collect(Collectors.toSet());
    }
}
