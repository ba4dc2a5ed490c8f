/**
 * Where one run's results go, the same for an embedded map, a fleet's coordinator and a retry
 * ({@link io.cloudg.output.RunOutput}): the spool on disk, the configured destinations fed while the run
 * streams, then the run's files and the {@link io.cloudg.InventoryResult}. Above the configuration and the
 * destinations, below whoever runs a map.
 */
package io.cloudg.output;
