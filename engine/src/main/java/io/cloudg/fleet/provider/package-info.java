/**
 * Each provider as a fleet sees it ({@link io.cloudg.fleet.provider.FleetProvider}): discovery and planning,
 * which the coordinator runs, and re-planning one task from its wire description with this process's own
 * clients and credentials, which a worker runs. {@link io.cloudg.fleet.provider.FleetProviders} opens them
 * once per process (eagerly for a coordinator, on first use for a worker) over one governor.
 */
package io.cloudg.fleet.provider;
