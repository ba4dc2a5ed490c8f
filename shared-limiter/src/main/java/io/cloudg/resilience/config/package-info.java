/**
 * The {@code ratelimit} configuration: immutable value objects ({@link
 * io.cloudg.resilience.config.RateLimitConfig}, {@link io.cloudg.resilience.config.ProviderLimits},
 * {@link io.cloudg.resilience.config.RedisSettings}) built either from YAML or from Java builders, and the
 * built-in rate table ({@link io.cloudg.resilience.config.BuiltInRates}). Keys another module reads inside
 * the block (the MCP server's {@code live_*}) are declared by that module ({@link
 * io.cloudg.resilience.config.RateLimitKeys}) and bound by it. Also the typed reader every module's section
 * uses ({@link io.cloudg.resilience.config.ConfigNode}).
 *
 * <p>Null means built-in everywhere; a service entry merges into the built-in table key by key and
 * replaces the whole entry it names. The YAML binder is table-driven: unknown keys are logged as
 * {@code Unknown config key ... is ignored} and skipped, wrong types and ranges fail with the key and the
 * value. Range checks live in the value objects, so the builder and YAML report the same errors, all
 * worded in {@link io.cloudg.resilience.config.ConfigErrors}.
 */
package io.cloudg.resilience.config;
