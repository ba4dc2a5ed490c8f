/**
 * The embedded map: {@link io.cloudg.map.InventoryMapper} discovers each configured provider, runs every
 * collection task on a thread pool of this process, all calls through one governor, and writes the run
 * ({@code io.cloudg.output.RunOutput}); with {@code retryFailed} it hands over to {@code io.cloudg.retry}. The
 * top of the engine: it uses every other package of it, none uses it.
 */
package io.cloudg.map;
