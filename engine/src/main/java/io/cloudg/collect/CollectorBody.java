package io.cloudg.collect;

import io.cloudg.inventory.AssetSink;

/** What one collector does in one account x region: list, and put what it finds in the sink. */
@FunctionalInterface
public interface CollectorBody {
    void run(AssetSink sink) throws Exception;
}
