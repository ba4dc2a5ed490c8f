/**
 * The {@code mcp} section of {@code cloudg.yaml} ({@link io.cloudg.mcp.config.McpSettings}): principals and
 * their tokens, the HTTP transport's address, where datasets live. Read from the shared
 * {@link io.cloudg.config.ConfigFile} by this module alone, with the same typed reader and error wording
 * as every other section.
 */
package io.cloudg.mcp.config;
