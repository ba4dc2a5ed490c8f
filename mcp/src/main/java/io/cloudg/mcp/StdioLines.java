package io.cloudg.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.cloudg.resilience.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio transport's two streams, so that a bad line gets a JSON-RPC error instead of ending the session,
 * and so that the end of the input does not lose the answers still to come.
 *
 * <p>The SDK's stdio transport stops reading at the first line it cannot parse, leaving the client waiting on
 * an answer that never comes. {@link #input} hands the SDK only lines that are one JSON-RPC message
 * ({@link JsonRpcMessages#check}) and answers every other line itself (-32700, -32600, with the request's id
 * when it has one), skipping blank lines; {@link Output} writes whole lines, so that those answers never
 * land in the middle of one of the SDK's.
 *
 * <p>The SDK's transport also stops writing the moment its input ends: a client that pipes in its requests
 * and closes stdin would get the answers of only those handled before the end was read. So the requests
 * handed to the SDK are counted in {@link InFlight} until {@link Output} has written their answers, and
 * at the end of the input {@link #input}'s stream first runs {@link EndOfInput} (which waits for them,
 * within a bound) and only then tells the SDK the input ended.
 */
final class StdioLines {
    private static final Logger LOG = LoggerFactory.getLogger("cloudg.mcp.stdio");

    private StdioLines() {
    }

    /**
     * An output stream that passes on whole lines only, each in one write, one line at a time; a line that
     * answers a request counted in {@code inFlight} marks it answered once it is written.
     */
    static final class Output extends OutputStream {
        private final OutputStream out;
        private final InFlight inFlight;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Output(OutputStream out, InFlight inFlight) {
            this.out = out;
            this.inFlight = inFlight;
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
            String answers = responseId(line.toByteArray());
            line.writeTo(out);
            line.reset();
            out.flush();
            if (answers != null) {
                inFlight.answered(answers);
            }
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

    /** What runs, once, when the input has ended (or failed), before the SDK is told. */
    @FunctionalInterface
    interface EndOfInput {
        void ended() throws InterruptedException;
    }

    /**
     * The lines of {@code in} that are JSON-RPC messages; every other line is answered on {@code out}. Each
     * request passed on is counted in {@code inFlight}; when {@code in} ends or fails, {@code end} runs once
     * before the SDK sees the end (or the failure).
     */
    static InputStream input(InputStream in, Output out, InFlight inFlight, EndOfInput end) {
        return new Input(in, out, inFlight, end);
    }

    /**
     * The requests handed to the SDK and not answered yet, by id (a client may reuse one: each use counts).
     * Thread-safe.
     */
    static final class InFlight {
        private final Map<String, ArrayDeque<String>> open = new LinkedHashMap<>();
        private boolean expired;

        /** A request with {@code id} (its JSON text, e.g. {@code 3} or {@code "a"}) was handed to the SDK. */
        synchronized void read(String id, String request) {
            open.computeIfAbsent(id, k -> new ArrayDeque<>()).add(request);
        }

        /** A line answering {@code id} was written. */
        synchronized void answered(String id) {
            ArrayDeque<String> q = open.get(id);
            if (q == null) {
                return;
            }
            q.poll();
            if (q.isEmpty()) {
                open.remove(id);
            }
            notifyAll();
        }

        /** The requests not answered yet, as {@code id 3 (tools/call map_inventory)}. */
        synchronized List<String> open() {
            List<String> all = new ArrayList<>();
            open.forEach((id, q) -> q.forEach(r -> all.add("id " + id + " (" + r + ")")));
            return all;
        }

        /**
         * Waits until every request read has been answered, or {@code boundNanos} of {@code time} have passed;
         * returns the requests still unanswered (empty when all were). When some are open, {@code waiting} is
         * told which, once the bound runs.
         */
        List<String> awaitAnswers(TimeSource time, long boundNanos, Consumer<List<String>> waiting)
                throws InterruptedException {
            List<String> before = open();
            if (before.isEmpty()) {
                return before;
            }
            CompletableFuture<Void> deadline = time.delay(boundNanos);
            deadline.thenRun(this::expire);
            waiting.accept(before);
            try {
                synchronized (this) {
                    while (!open.isEmpty() && !expired) {
                        wait();
                    }
                    return open();
                }
            } finally {
                deadline.cancel(false);
            }
        }

        private synchronized void expire() {
            expired = true;
            notifyAll();
        }
    }

    /** The id (its JSON text) of a response line, or null when the line is not a response. */
    static String responseId(byte[] line) {
        try (JsonParser p = Json.MAPPER.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String id = null;
            boolean outcome = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "method" -> {
                        return null; // a request or notification from the server
                    }
                    case "id" -> id = value == JsonToken.VALUE_STRING
                            ? Json.MAPPER.writeValueAsString(p.getText()) : p.getText();
                    case "result", "error" -> outcome = true;
                    default -> {
                        // jsonrpc, or a field of no interest here
                    }
                }
                if (id != null && outcome) {
                    return id;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    private static final class Input extends InputStream {
        private final InputStream in;
        private final Output out;
        private final InFlight inFlight;
        private final EndOfInput end;
        private boolean ended;
        private byte[] pending = new byte[0];
        private int pos;

        Input(InputStream in, Output out, InFlight inFlight, EndOfInput end) {
            this.in = new java.io.BufferedInputStream(in);
            this.out = out;
            this.inFlight = inFlight;
            this.end = end;
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

        /** Runs {@link EndOfInput} the first time the input ends or fails. */
        private void ended() throws IOException {
            if (ended) {
                return;
            }
            ended = true;
            try {
                end.ended();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted at the end of the input");
            }
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
                Line line;
                try {
                    line = ended ? null : readLine();
                } catch (IOException e) {
                    ended();
                    throw e;
                }
                if (line == null) {
                    ended();
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
                    if (c.request() != null) {
                        inFlight.read(c.id().toString(), c.request());
                    }
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
