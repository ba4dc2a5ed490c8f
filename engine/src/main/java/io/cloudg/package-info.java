/**
 * What every part of cloudg that maps shares, and what an embedder starts from: {@link io.cloudg.CloudGConfig}
 * (YAML or builder: the engine's sections of {@code cloudg.yaml}), {@link io.cloudg.InventoryResult} (what a
 * run found and where it was written) and {@link io.cloudg.Governors} (the one factory of the governor every
 * command uses). Mapping itself is {@code io.cloudg.map.InventoryMapper} in this process, or a fleet. This
 * package depends on the configuration, inventory, destination and metrics packages only; the packages that
 * run a map depend on it.
 */
package io.cloudg;
