/**
 * What every module's tests share, shipped in the engine's test jar: the check of written maps against
 * {@code docs/schema/inventory-map.schema.json} ({@link io.cloudg.testkit.MapSchema}) and a real PostgreSQL
 * server ({@link io.cloudg.testkit.TestPostgres}, never a mock).
 */
package io.cloudg.testkit;
