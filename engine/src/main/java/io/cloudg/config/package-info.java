/**
 * Loading cloudg's configuration. {@link io.cloudg.config.ConfigFile} parses {@code cloudg.yaml} once; each
 * module binds its own sections from it with the governor's typed reader ({@code ConfigNode}: the full key
 * in every error, one wording through {@code ConfigErrors}), and declares its top-level keys through
 * {@link io.cloudg.config.ConfigKeys} so that only keys no module reads are warned about. This package holds
 * the engine's sections: one immutable settings record per provider; {@code ratelimit} is the governor's
 * own loader, {@code fleet} is {@code io.cloudg.fleet}'s, {@code mcp} the MCP module's.
 */
package io.cloudg.config;
