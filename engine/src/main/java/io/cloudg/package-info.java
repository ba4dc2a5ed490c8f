/**
 * What every part of cloudg that maps shares, and what an embedder starts from: {@link io.cloudg.CloudGConfig}
 * (YAML or builder: the engine's sections of {@code cloudg.yaml}), {@link io.cloudg.InventoryResult} (what a
 * run found and where it was written), {@link io.cloudg.Governors} (the one factory of the governor every
 * command uses) and {@link io.cloudg.Estates} (which estate a provider's calls go to: the key of the rates the
 * governor learned). Mapping itself is {@code io.cloudg.map.InventoryMapper} in this process, or a fleet. This
 * package depends on the configuration, inventory, destination and metrics packages, on {@code aws}'s catalog
 * (to check {@code aws.collectors}) and on {@code run}'s task description only; the packages that run a map
 * depend on it.
 */
package io.cloudg;
