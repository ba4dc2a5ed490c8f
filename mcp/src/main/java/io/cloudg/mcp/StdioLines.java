package io.cloudg.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio transport's two streams, so that a bad line gets a JSON-RPC error instead of ending the session:
 * the SDK's stdio transport stops reading at the first line it cannot parse, leaving the client waiting on
 * an answer that never comes. {@link #input} hands the SDK only lines that are one JSON-RPC message
 * ({@link JsonRpcMessages#check}) and answers every other line itself (-32700, -32600, with the request's id
 * when it has one), skipping blank lines; {@link #output} writes whole lines, so that those answers never
 * land in the middle of one of the SDK's.
 */
final class StdioLines {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp.stdio");

    private StdioLines() {
    }

    /** An output stream that passes on whole lines only, each in one write, one line at a time. */
    static final class Output extends OutputStream {
        private final OutputStream out;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Output(OutputStream out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            line.write(b);
            if (b == '\n') {
                emit();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws IOException {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    line.write(b, start, i + 1 - start);
                    emit();
                    start = i + 1;
                }
            }
            line.write(b, start, off + len - start);
        }

        private void emit() throws IOException {
            line.writeTo(out);
            line.reset();
            out.flush();
        }

        /** Writes {@code text} and a newline as one line of its own. */
        synchronized void writeLine(String text) throws IOException {
            if (line.size() > 0) {
                throw new IllegalStateException("a line of the transport is half written");
            }
            out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        @Override
        public synchronized void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** The lines of {@code in} that are JSON-RPC messages; every other line is answered on {@code out}. */
    static InputStream input(InputStream in, Output out) {
        return new Input(in, out);
    }

    private static final class Input extends InputStream {
        private final InputStream in;
        private final Output out;
        private byte[] pending = new byte[0];
        private int pos;

        Input(InputStream in, Output out) {
            this.in = new java.io.BufferedInputStream(in);
            this.out = out;
        }

        @Override
        public int read() throws IOException {
            if (pos >= pending.length && !fill()) {
                return -1;
            }
            return pending[pos++] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos >= pending.length && !fill()) {
                return -1;
            }
            int n = Math.min(len, pending.length - pos);
            System.arraycopy(pending, pos, b, off, n);
            pos += n;
            return n;
        }

        @Override
        public int available() {
            return pending.length - pos;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        /** The next line that is a message, with its newline; false at the end of the input. */
        private boolean fill() throws IOException {
            while (true) {
                Line line = readLine();
                if (line == null) {
                    return false;
                }
                JsonRpcMessages.Checked c;
                if (line.tooLong()) {
                    c = JsonRpcMessages.Checked.refused(new JsonRpcMessages.Refusal(413,
                            io.modelcontextprotocol.spec.McpSchema.ErrorCodes.INVALID_REQUEST, "a message must be at "
                            + "most " + JsonRpcMessages.MAX_BODY_BYTES + " bytes, but this line was longer"));
                } else if (isBlank(line.bytes())) {
                    continue;
                } else {
                    c = JsonRpcMessages.check(line.bytes());
                }
                if (c.refusal() == null) {
                    pending = Arrays.copyOf(line.bytes(), line.bytes().length + 1);
                    pending[pending.length - 1] = '\n';
                    pos = 0;
                    return true;
                }
                LOG.warn("answered a stdin line that is not a JSON-RPC message: {}", c.refusal().message());
                out.writeLine(McpErrors.httpError(c.id(), c.refusal().code(), c.refusal().message()));
            }
        }

        private record Line(byte[] bytes, boolean tooLong) {
        }

        /** One line without its line end; bytes past the limit are read and dropped. Null at the end. */
        private Line readLine() throws IOException {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            boolean tooLong = false;
            int b = in.read();
            if (b < 0) {
                return null;
            }
            while (b >= 0 && b != '\n') {
                if (buf.size() < JsonRpcMessages.MAX_BODY_BYTES) {
                    buf.write(b);
                } else {
                    tooLong = true;
                }
                b = in.read();
            }
            byte[] bytes = buf.toByteArray();
            if (bytes.length > 0 && bytes[bytes.length - 1] == '\r') {
                bytes = Arrays.copyOf(bytes, bytes.length - 1);
            }
            return new Line(bytes, tooLong);
        }

        private static boolean isBlank(byte[] b) {
            for (byte x : b) {
                if (x != ' ' && x != '\t') {
                    return false;
                }
            }
            return true;
        }
    }
}
