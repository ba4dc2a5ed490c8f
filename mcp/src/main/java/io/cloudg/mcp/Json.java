package io.cloudg.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.util.Map;

/** The one Jackson 2 mapper of the MCP server: the SDK's wire format and the tools' payloads. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    static final McpJsonMapper MCP = new JacksonMcpJsonMapper(MAPPER);

    private Json() {
    }

    static ObjectNode tree(Object payload) {
        JsonNode n = MAPPER.valueToTree(payload);
        return n instanceof ObjectNode o ? o : MAPPER.createObjectNode().set("value", n);
    }

    static Map<String, Object> map(JsonNode n) {
        return MAPPER.convertValue(n, new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {
        });
    }

    static String pretty(Object o) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
