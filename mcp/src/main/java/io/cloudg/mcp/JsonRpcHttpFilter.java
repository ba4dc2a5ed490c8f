package io.cloudg.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP endpoint answers every request it cannot take with a JSON-RPC error object and a short message,
 * never with a serialized exception or an HTML page. Runs after {@link BearerAuthFilter}, before the SDK's
 * transport, and checks what the transport would otherwise fail on: the HTTP method (POST, GET, DELETE),
 * a POST's {@code Content-Type} (application/json), its size ({@link JsonRpcMessages#MAX_BODY_BYTES}),
 * that it is JSON (-32700) and one JSON-RPC 2.0 message (-32600). Whatever error the transport still
 * answers itself (a missing or unknown session, an {@code Accept} header without text/event-stream, its
 * shutdown) keeps its HTTP status and is rewritten in the same form; an exception out of it is -32603
 * with a one-line message, its stack trace in the log only.
 */
final class JsonRpcHttpFilter implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp.http");

    private final String path;

    JsonRpcHttpFilter(String path) {
        this.path = path;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest req = (HttpServletRequest) request;
        HttpServletResponse resp = (HttpServletResponse) response;
        String method = req.getMethod();
        if (!JsonRpcMessages.METHODS.contains(method)) {
            resp.setHeader("Allow", String.join(", ", JsonRpcMessages.METHODS));
            write(resp, JsonRpcMessages.methodNotAllowed(method, path), NullNode.getInstance());
            return;
        }
        JsonNode id = NullNode.getInstance();
        HttpServletRequest passed = req;
        if (method.equals("POST")) {
            JsonRpcMessages.Checked checked = check(req);
            if (checked.refusal() != null) {
                LOG.info("refused an MCP request from {}: {}", req.getRemoteAddr(), checked.refusal().message());
                write(resp, checked.refusal(), checked.id());
                return;
            }
            id = checked.id();
            passed = new BufferedBody(req, checked.body());
        }
        ErrorRewriting rewriting = new ErrorRewriting(resp, id);
        try {
            chain.doFilter(passed, rewriting);
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException | ServletException e) {
            LOG.warn("the MCP transport failed on a {} request", method, e);
            if (resp.isCommitted()) {
                return;
            }
            write(resp, JsonRpcMessages.internal(e), id);
            return;
        }
        rewriting.finish();
    }

    /** Reads and checks a POST: its content type, its size, and that it is one JSON-RPC message. */
    private static JsonRpcMessages.Checked check(HttpServletRequest req) throws IOException {
        JsonRpcMessages.Refusal type = JsonRpcMessages.contentType(req.getContentType());
        long declared = req.getContentLengthLong();
        try (InputStream in = req.getInputStream()) {
            if (type != null) {
                drain(in);
                return JsonRpcMessages.Checked.refused(type);
            }
            if (declared > JsonRpcMessages.MAX_BODY_BYTES) {
                drain(in);
                return JsonRpcMessages.Checked.refused(JsonRpcMessages.tooLarge(declared));
            }
            byte[] body = in.readNBytes(JsonRpcMessages.MAX_BODY_BYTES + 1);
            if (body.length > JsonRpcMessages.MAX_BODY_BYTES) {
                drain(in);
                return JsonRpcMessages.Checked.refused(JsonRpcMessages.tooLarge(-1));
            }
            return JsonRpcMessages.check(body);
        }
    }

    /**
     * Reads and drops what is left of a refused body (a wrong content type, or too large), up to
     * {@link #DRAIN_LIMIT_BYTES}: a client still sending when the server answers and closes would otherwise often
     * read a reset instead of the 415 or 413 (McpHttpErrorsTest met it for the 415 on a loaded machine: "HTTP/1.1
     * header parser received no bytes", a broken pipe). Beyond the limit the connection is closed with the body
     * unread (the client may then see the reset).
     */
    private static void drain(InputStream in) throws IOException {
        long left = DRAIN_LIMIT_BYTES;
        byte[] sink = new byte[8192];
        int n;
        while (left > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, left))) > 0) {
            left -= n;
        }
    }

    /** How much of a refused body is read before answering 415 or 413 (see {@link #drain}). */
    static final long DRAIN_LIMIT_BYTES = 8L * JsonRpcMessages.MAX_BODY_BYTES;

    private static void write(HttpServletResponse resp, JsonRpcMessages.Refusal r, JsonNode id) throws IOException {
        byte[] out = McpErrors.httpError(id, r.code(), r.message()).getBytes(StandardCharsets.UTF_8);
        resp.resetBuffer();
        resp.setStatus(r.status());
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.setContentLength(out.length);
        resp.getOutputStream().write(out);
        resp.flushBuffer();
    }

    /** A request whose body was already read (to check it): the transport reads it again from here. */
    private static final class BufferedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        BufferedBody(HttpServletRequest req, byte[] body) {
            super(req);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was read already; no asynchronous reading");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }

    /**
     * The transport's response, with its errors rewritten: {@code sendError} and any body written under an
     * error status (the SDK serializes its exception there) become one JSON-RPC error with that status.
     */
    private static final class ErrorRewriting extends HttpServletResponseWrapper {
        private final JsonNode id;
        private ByteArrayOutputStream captured;
        private PrintWriter writer;
        private ServletOutputStream stream;
        private boolean answered;

        ErrorRewriting(HttpServletResponse resp, JsonNode id) {
            super(resp);
            this.id = id;
        }

        private HttpServletResponse real() {
            return (HttpServletResponse) getResponse();
        }

        @Override
        public void sendError(int sc) throws IOException {
            sendError(sc, null);
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            answered = true;
            write(real(), JsonRpcMessages.transportError(sc, msg), id);
        }

        private boolean capturing() {
            if (captured == null && getStatus() >= 400) {
                captured = new ByteArrayOutputStream();
            }
            return captured != null;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (!capturing()) {
                return super.getWriter();
            }
            if (writer == null) {
                writer = new PrintWriter(new OutputStreamWriter(captured, StandardCharsets.UTF_8));
            }
            return writer;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (!capturing()) {
                return super.getOutputStream();
            }
            if (stream == null) {
                stream = new ServletOutputStream() {
                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setWriteListener(WriteListener listener) {
                        throw new IllegalStateException("an error body is written at once");
                    }

                    @Override
                    public void write(int b) {
                        captured.write(b);
                    }
                };
            }
            return stream;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (captured == null) {
                super.flushBuffer();
            }
        }

        /** After the transport returned: an error body it wrote is rewritten and sent. */
        void finish() throws IOException {
            if (answered || captured == null) {
                return;
            }
            if (writer != null) {
                writer.flush();
            }
            write(real(), JsonRpcMessages.transportError(getStatus(),
                    JsonRpcMessages.transportMessage(captured.toString(StandardCharsets.UTF_8))), id);
        }
    }
}
