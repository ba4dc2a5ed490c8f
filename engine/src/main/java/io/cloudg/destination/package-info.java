/**
 * Destinations: where a run is written while it streams, besides {@code inventory-map.json}. The SPI is
 * {@link io.cloudg.destination.Destination} (begin, batches of assets, finish; MUST contracts in its
 * Javadoc), configured by a {@link io.cloudg.destination.DestinationSpec} (one entry of {@code destinations}
 * in cloudg.yaml, or {@code --postgres}). {@link io.cloudg.destination.Destinations} feeds them from the
 * run's asset spool: batches through a small bounded queue to one writer thread per destination, so a slow
 * destination costs collectors nothing until it falls a few batches behind, and a failing one is FAILED
 * alone (its error in the run block as a {@link io.cloudg.destination.DestinationStatus}) while the map is
 * written in full. The embedded map, the fleet's coordinator and a retry all use it through
 * {@code io.cloudg.output.RunOutput}.
 */
package io.cloudg.destination;
