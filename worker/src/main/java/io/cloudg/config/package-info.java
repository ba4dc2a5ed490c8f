/**
 * Loading cloudg's configuration: one small typed reader ({@code Yaml}) that names the full key in
 * every error, and one immutable settings record per provider. The {@code ratelimit} block is delegated
 * to the governor's loader, so that both speak with the same voice ({@code ConfigErrors}).
 */
package io.cloudg.config;
