/** PostgreSQL write throughput of the destination ({@code PostgresWriteBench}); results in BENCHMARKS.md. */
package io.cloudg.bench.postgres;
