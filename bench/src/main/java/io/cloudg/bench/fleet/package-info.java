/**
 * The fleet scaling benchmark: one generated cloud-sim estate mapped by fleets of 1, 2 and 4 worker JVMs
 * (a real Kafka broker and Redis started from the Maven build, the real {@code cloudg} launcher for
 * workers and coordinator), with the elapsed time, the quota lower bound and the scaling efficiency.
 * Run it with {@code scripts/fleet-bench.sh}; results are in BENCHMARKS.md under "Fleet".
 */
package io.cloudg.bench.fleet;
