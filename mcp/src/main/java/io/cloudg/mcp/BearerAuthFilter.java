package io.cloudg.mcp;

import io.cloudg.mcp.guard.Principal;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every HTTP request to the MCP endpoint needs {@code Authorization: Bearer <token>} with a configured
 * token; anything else is answered 401 before the MCP transport sees it. The principal rides on the
 * request as {@link #PRINCIPAL_ATTRIBUTE}, where the transport's context extractor picks it up.
 */
final class BearerAuthFilter implements Filter {
    static final String PRINCIPAL_ATTRIBUTE = "cloudg.mcp.principal";
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp.auth");

    private final Principals principals;

    BearerAuthFilter(Principals principals) {
        this.principals = principals;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        String header = req.getHeader("Authorization");
        Optional<Principal> who = Optional.empty();
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            who = principals.byToken(header.substring(7).trim());
        }
        if (who.isEmpty()) {
            LOG.warn("refused an MCP request from {}: {}", req.getRemoteAddr(),
                    header == null ? "no Authorization header" : "unknown bearer token");
            HttpServletResponse resp = (HttpServletResponse) response;
            resp.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            resp.setHeader("WWW-Authenticate", "Bearer realm=\"cloudg\"" + (header == null ? "" : ", error=\"invalid_token\""));
            resp.setContentType("application/json");
            resp.getOutputStream().write(McpErrors.httpError(com.fasterxml.jackson.databind.node.NullNode.getInstance(),
                    io.modelcontextprotocol.spec.McpSchema.ErrorCodes.INVALID_REQUEST, header == null
                            ? "missing bearer token: send Authorization: Bearer <token> (mcp.principals)"
                            : "unknown bearer token").getBytes(StandardCharsets.UTF_8));
            return;
        }
        req.setAttribute(PRINCIPAL_ATTRIBUTE, who.get());
        chain.doFilter(request, response);
    }
}
