package io.cloudg.mcp.live;

import io.cloudg.InventoryResult;
import java.nio.file.Path;

/**
 * Calls the clouds for a live tool: the only place the MCP server reaches a cloud API. The guard runs it;
 * tests may wrap it (to hold an operation open while they join or race it).
 */
@FunctionalInterface
public interface Collector {
    /**
     * Collects what {@code spec} covers and writes {@code inventory-map.json} into {@code outDir}.
     * MUST end promptly (with an error) when the calling thread is interrupted: that is how the guard
     * cancels an operation that timed out.
     */
    InventoryResult collect(CollectSpec spec, Path outDir) throws InterruptedException;
}
