package io.cloudg.mcp;

import com.fasterxml.jackson.databind.node.NullNode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Every path of the MCP HTTP server but the endpoint (and {@code /metrics}): 404, naming the endpoint. */
final class NotFoundServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final String endpoint;

    NotFoundServlet(String endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        byte[] body = McpErrors.httpError(NullNode.getInstance(), io.modelcontextprotocol.spec.McpSchema.ErrorCodes.INVALID_REQUEST,
                "nothing is served at " + JsonRpcMessages.shorten(req.getRequestURI()) + "; the MCP endpoint is "
                        + endpoint).getBytes(StandardCharsets.UTF_8);
        resp.setStatus(HttpServletResponse.SC_NOT_FOUND);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
    }
}
