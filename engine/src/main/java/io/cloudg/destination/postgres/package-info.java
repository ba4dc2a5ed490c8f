/**
 * The PostgreSQL destination (docs/postgres.md). {@link io.cloudg.destination.postgres.PostgresSpec} is its
 * configuration (URL, schema, where the password comes from), {@link io.cloudg.destination.postgres.PostgresUrl}
 * turns a libpq-style URL into the JDBC driver's terms without ever showing the password,
 * {@link io.cloudg.destination.postgres.PostgresSchema} creates and migrates the tables (versioned, under an
 * advisory lock), {@code PostgresDestination} writes a run (a {@code COPY} and three set-based statements per
 * batch; idempotent per run and asset), and {@link io.cloudg.destination.postgres.PostgresRuns} reads runs
 * back for {@code cloudg diff}.
 */
package io.cloudg.destination.postgres;
