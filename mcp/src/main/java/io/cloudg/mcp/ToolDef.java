package io.cloudg.mcp;

import io.cloudg.mcp.guard.Principal;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * One MCP tool: its definition and what it does for a principal.
 *
 * @param tool name, description, input schema and hints
 * @param handler the body; returns the structured result (or a finished {@link McpSchema.CallToolResult})
 */
record ToolDef(McpSchema.Tool tool, Handler handler) {

    /** Whether the tool calls a cloud (a live tool): its {@code openWorldHint}, as {@link #define} sets it. */
    boolean live() {
        return tool.annotations() != null && Boolean.TRUE.equals(tool.annotations().openWorldHint());
    }

    @FunctionalInterface
    interface Handler {
        Object call(Principal principal, ToolArgs args) throws Exception;
    }

    static McpSchema.Tool define(String name, String title, String description, String inputSchemaJson, boolean live) {
        return McpSchema.Tool.builder(name, Json.MCP, inputSchemaJson).title(title).description(description)
                .annotations(McpSchema.ToolAnnotations.builder().title(title).readOnlyHint(!live).destructiveHint(false)
                        .idempotentHint(!live).openWorldHint(live).build())
                .build();
    }
}
