/**
 * The embedder API: {@link io.cloudg.CloudGConfig} (YAML or builder), {@link io.cloudg.InventoryMapper}
 * (maps an estate in this process through the governor) and {@link io.cloudg.InventoryResult}.
 */
package io.cloudg;
