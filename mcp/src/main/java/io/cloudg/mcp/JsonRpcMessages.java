package io.cloudg.mcp;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.NullNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * What a request to the streamable HTTP endpoint must be before the transport takes it, as pure checks:
 * each failure is a {@link Refusal}, an HTTP status with a JSON-RPC error code and a one-line message
 * naming what was wrong (never an exception's text with its stack).
 *
 * <table>
 *   <caption>Refusals</caption>
 *   <tr><th>status</th><th>code</th><th>when</th></tr>
 *   <tr><td>405</td><td>-32600</td><td>an HTTP method other than POST, GET, DELETE</td></tr>
 *   <tr><td>415</td><td>-32600</td><td>a POST whose {@code Content-Type} is not application/json</td></tr>
 *   <tr><td>413</td><td>-32600</td><td>a body over {@link #MAX_BODY_BYTES}</td></tr>
 *   <tr><td>400</td><td>-32700</td><td>a body that is not JSON (or is empty)</td></tr>
 *   <tr><td>400</td><td>-32600</td><td>JSON that is not one JSON-RPC 2.0 message (a batch, no {@code jsonrpc},
 *       a {@code method} that is not a string, an {@code id} that is neither string nor integer, ...)</td></tr>
 *   <tr><td>the transport's</td><td>-32600 (4xx), -32603 (5xx)</td><td>an error the SDK's transport answers
 *       (no or unknown session, an {@code Accept} without text/event-stream), its message kept</td></tr>
 * </table>
 */
final class JsonRpcMessages {
    /** The HTTP methods of MCP's streamable HTTP transport. */
    static final List<String> METHODS = List.of("POST", "GET", "DELETE");
    /** The largest body taken: an MCP request is a tool call with small arguments. */
    static final int MAX_BODY_BYTES = 1 << 20;
    private static final int SHOWN = 60;
    private static final int MESSAGE_MAX = 300;
    private static final ObjectReader READER = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonRpcMessages() {
    }

    /**
     * A request refused: the HTTP status and the JSON-RPC error.
     *
     * @param status the HTTP status
     * @param code the JSON-RPC error code
     * @param message one line saying what was wrong
     */
    record Refusal(int status, int code, String message) {
    }

    /**
     * A checked body: the bytes to pass on, or why it was refused; {@code id} is the message's id when it has one
     * (the error answers it), else JSON null; {@code request} says what a request (a message with a method and
     * an id, which expects an answer) asks, e.g. {@code tools/call map_inventory}, and is null for anything else.
     */
    record Checked(byte[] body, JsonNode id, Refusal refusal, String request) {
        Checked(byte[] body, JsonNode id, Refusal refusal) {
            this(body, id, refusal, null);
        }

        static Checked refused(Refusal r) {
            return new Checked(null, NullNode.getInstance(), r);
        }
    }

    static Refusal methodNotAllowed(String method, String path) {
        return new Refusal(405, McpSchema.ErrorCodes.INVALID_REQUEST, "HTTP method " + method + " is not served at "
                + path + ": POST a JSON-RPC message (GET opens the event stream, DELETE ends the session)");
    }

    /** Null when {@code contentType} is application/json (any parameters), else the refusal. */
    static Refusal contentType(String contentType) {
        String media = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (media.equals("application/json")) {
            return null;
        }
        return new Refusal(415, McpSchema.ErrorCodes.INVALID_REQUEST, "Content-Type must be application/json, but was "
                + (contentType == null ? "none" : "\"" + shorten(contentType) + "\""));
    }

    /** A body over the limit; {@code declared} its Content-Length, or -1 when it was sent without one. */
    static Refusal tooLarge(long declared) {
        return new Refusal(413, McpSchema.ErrorCodes.INVALID_REQUEST, "the body must be at most " + MAX_BODY_BYTES
                + " bytes, but was " + (declared >= 0 ? declared + " bytes" : "longer"));
    }

    /** Parses {@code body} and checks it is one JSON-RPC 2.0 message. */
    static Checked check(byte[] body) {
        JsonNode n;
        try {
            n = READER.readTree(body);
        } catch (JsonProcessingException e) {
            return Checked.refused(new Refusal(400, McpSchema.ErrorCodes.PARSE_ERROR, "parse error: the body is not JSON: "
                    + shorten(e.getOriginalMessage()) + where(e.getLocation())));
        } catch (IOException e) {
            return Checked.refused(new Refusal(400, McpSchema.ErrorCodes.PARSE_ERROR, "parse error: " + shorten(e.getMessage())));
        }
        if (n == null || n.isMissingNode()) {
            return Checked.refused(new Refusal(400, McpSchema.ErrorCodes.PARSE_ERROR,
                    "parse error: the body is empty; POST one JSON-RPC message"));
        }
        JsonNode id = n.isObject() && (n.path("id").isTextual() || n.path("id").isIntegralNumber()) ? n.get("id")
                : NullNode.getInstance();
        String problem = problem(n);
        if (problem != null) {
            return new Checked(null, id, new Refusal(400, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "invalid request: " + problem));
        }
        return new Checked(body, id, null, n.has("method") && n.has("id") ? describe(n) : null);
    }

    /** A request's method, and the tool a {@code tools/call} names. */
    private static String describe(JsonNode request) {
        String method = request.get("method").asText();
        JsonNode tool = request.path("params").path("name");
        return method.equals("tools/call") && tool.isTextual() ? method + " " + shorten(tool.asText()) : method;
    }

    /** What makes {@code n} something other than one JSON-RPC 2.0 request, notification or response; null if nothing. */
    private static String problem(JsonNode n) {
        if (n.isArray()) {
            return "a batch (a JSON array) is not supported; POST one message per request";
        }
        if (!n.isObject()) {
            return "the body must be a JSON-RPC message (an object), but was " + show(n);
        }
        if (!"2.0".equals(n.path("jsonrpc").isTextual() ? n.get("jsonrpc").asText() : null)) {
            return "\"jsonrpc\" must be \"2.0\", but was " + (n.has("jsonrpc") ? show(n.get("jsonrpc")) : "missing");
        }
        if (n.has("id") && !(n.get("id").isTextual() || n.get("id").isIntegralNumber())) {
            return "\"id\" must be a string or an integer, but was " + show(n.get("id"));
        }
        if (n.has("method")) {
            if (!n.get("method").isTextual() || n.get("method").asText().isEmpty()) {
                return "\"method\" must be a non-empty string, but was " + show(n.get("method"));
            }
            if (n.has("params") && !n.get("params").isObject()) {
                return "\"params\" must be an object, but was " + show(n.get("params"));
            }
            return null;
        }
        if (!n.has("id") || n.has("result") == n.has("error")) {
            return "a message needs \"method\" (a request or a notification), or \"id\" with either \"result\" or "
                    + "\"error\" (a response)";
        }
        return null;
    }

    /** An exception out of the transport: its one-line message; the stack trace stays in the log. */
    static Refusal internal(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new Refusal(500, McpSchema.ErrorCodes.INTERNAL_ERROR, "internal error: " + root.getClass().getSimpleName()
                + (root.getMessage() == null ? "" : ": " + shorten(root.getMessage())));
    }

    /** An error the transport answered with {@code status}: -32600 for a 4xx, -32603 for a 5xx. */
    static Refusal transportError(int status, String message) {
        int code = status >= 500 ? McpSchema.ErrorCodes.INTERNAL_ERROR : McpSchema.ErrorCodes.INVALID_REQUEST;
        String text = message == null || message.isBlank() ? reason(status) : shorten(message);
        return new Refusal(status, code, text);
    }

    /**
     * The message inside what the transport wrote under an error status: the {@code message} of the
     * serialized exception's {@code jsonRpcError} (or of a plain error object), never the rest of it.
     */
    static String transportMessage(String written) {
        try {
            JsonNode n = Json.MAPPER.readTree(written);
            for (String p : List.of("/jsonRpcError/message", "/error/message", "/message")) {
                if (n != null && n.at(p).isTextual()) {
                    return n.at(p).asText();
                }
            }
        } catch (IOException e) {
            // not JSON: fall back to the status's reason
        }
        return null;
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> "bad request";
            case 403 -> "forbidden";
            case 404 -> "not found";
            case 405 -> "method not allowed";
            case 413 -> "the body is too large";
            case 503 -> "the server is shutting down";
            default -> "HTTP " + status;
        };
    }

    private static String where(JsonLocation l) {
        return l == null || l.getLineNr() < 1 ? "" : " (line " + l.getLineNr() + ", column " + l.getColumnNr() + ")";
    }

    private static String show(JsonNode v) {
        String s = v.toString();
        return s.length() > SHOWN ? s.substring(0, SHOWN) + "..." : s;
    }

    /** The first line of {@code s}, at most {@value #MESSAGE_MAX} characters. */
    static String shorten(String s) {
        if (s == null) {
            return "";
        }
        String line = s.strip().lines().findFirst().orElse("");
        return line.length() > MESSAGE_MAX ? line.substring(0, MESSAGE_MAX) + "..." : line;
    }
}
