/**
 * What a map produces: {@link io.cloudg.inventory.Asset}s, {@link io.cloudg.inventory.CoverageRecord}s
 * (one per account x region, an entry per collector: SUCCESS, PARTIAL or FAILED with the reason), the
 * {@link io.cloudg.inventory.Summary}, and the file format of {@code inventory-map.json}
 * ({@link io.cloudg.inventory.InventoryMapWriter}). Assets never accumulate in memory: collectors write
 * them to an {@link io.cloudg.inventory.AssetSpool} (JSON lines on disk) and the writer streams the spool
 * into the final file. {@link io.cloudg.inventory.RunFiles} lays a run out in the output directory
 * ({@code runs/<id>/} with the map, {@code assets.jsonl} and {@code coverage.jsonl}, the top-level links,
 * {@code runs/latest}, the retention); {@link io.cloudg.inventory.MapReader} reads a map back without holding
 * its assets. The format is {@code docs/schema/inventory-map.schema.json}.
 */
package io.cloudg.inventory;
