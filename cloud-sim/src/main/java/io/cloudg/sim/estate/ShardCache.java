package io.cloudg.sim.estate;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Shards generated recently, at most {@code capacity} of them: when full, an arbitrary quarter is dropped.
 * Dropping is always safe because a shard generated again is the same shard; the bound keeps the heap flat
 * however many accounts and regions a map walks through.
 */
final class ShardCache {
    private final ConcurrentHashMap<String, AwsShard> shards = new ConcurrentHashMap<>();
    private final int capacity;

    ShardCache(int capacity) {
        this.capacity = capacity;
    }

    AwsShard get(String key, Supplier<AwsShard> generate) {
        AwsShard s = shards.get(key);
        if (s != null) {
            return s;
        }
        if (shards.size() >= capacity) {
            int drop = Math.max(1, capacity / 4);
            for (Iterator<String> it = shards.keySet().iterator(); it.hasNext() && drop > 0; drop--) {
                it.next();
                it.remove();
            }
        }
        return shards.computeIfAbsent(key, k -> generate.get());
    }

    int size() {
        return shards.size();
    }
}
