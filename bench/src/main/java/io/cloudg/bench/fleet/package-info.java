/**
 * The fleet scaling benchmark: one generated cloud-sim estate mapped by fleets of 1, 2 and 4 worker JVMs
 * (a real Kafka broker and Redis started from the Maven build, the real {@code cloudg} launcher for
 * workers and coordinator), with the elapsed time, the quota lower bound and the scaling efficiency.
 * Run it with {@code scripts/fleet-bench.sh}; results are in BENCHMARKS.md under "Fleet".
 *
 * <p>Issue 38's shared quotas, with the same parts (the launcher, a real {@code redis-server} as a child process,
 * {@link io.cloudg.bench.map.QuotaBound}): {@link io.cloudg.bench.fleet.SharedQuotaBench}, N processes mapping
 * one strict estate at once (the AWS SDK alone, cloudg each governing alone, cloudg sharing one Redis), and
 * {@link io.cloudg.bench.fleet.FortyClientsBench}, forty EC2 clients of one account in one process, the SDK alone
 * against one governor, with how long the account's bucket stayed empty (the sim's {@code emptySeconds}). Run them
 * with {@code scripts/shared-quota-bench.sh}; results in BENCHMARKS.md under "Shared quotas (issue 38)".
 */
package io.cloudg.bench.fleet;
