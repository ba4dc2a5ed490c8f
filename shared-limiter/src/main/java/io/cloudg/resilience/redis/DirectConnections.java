package io.cloudg.resilience.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisTimeoutException;

/**
 * Blocking connections to one standalone Redis on which the calling thread writes a command and reads its
 * answer itself: no event loop between the caller and the socket. {@link ScriptRunner} sends an admission
 * this way when its lane has nothing queued or unanswered (see there): at a map's pace nearly every admission
 * goes out alone, and the lane's hand-offs (waking its event loop, then being woken by it) cost more CPU than
 * the round trip itself.
 *
 * <p>A connection is lent to one caller at a time and kept for the next; at most {@code max} are open, and a
 * caller that finds none free returns {@code null} (the lane then takes the call). A connection opens with
 * {@code AUTH} (the user and password Redisson uses), {@code SELECT} (its database) and {@code CLIENT SETNAME}
 * (its client name). Answers are read as
 * Redisson's {@code StringCodec} and list decoder give them: integers as {@code Long}, bulk and simple strings
 * as {@code String}, arrays as {@code List}, nil as {@code null}; an error answer is thrown as a
 * {@link RedisException} with the server's message. A connection that failed is closed; {@link #reset}
 * closes the idle ones and makes the lent ones close when they come back.
 */
final class DirectConnections implements AutoCloseable {
    private final InetSocketAddress address;
    private final String username;
    private final String password;
    private final int database;
    private final String clientName;
    private final int connectTimeoutMs;
    private final int timeoutMs;
    private final int max;
    private final ConcurrentLinkedDeque<Conn> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger open = new AtomicInteger();
    private volatile int generation;
    private volatile boolean closed;

    DirectConnections(InetSocketAddress address, String username, String password, int database, String clientName,
                      int connectTimeoutMs, int timeoutMs, int max) {
        this.address = address;
        this.username = username;
        this.password = password;
        this.database = database;
        this.clientName = clientName;
        this.connectTimeoutMs = connectTimeoutMs;
        this.timeoutMs = timeoutMs;
        this.max = max;
    }

    /**
     * A connection lent to the caller, or {@code null} when {@code max} are open and lent.
     *
     * @throws RedisConnectionException when a new connection cannot be made or refuses AUTH or SELECT
     */
    Conn borrow() {
        Conn c = idle.pollFirst();
        if (c != null) {
            return c;
        }
        if (closed) {
            return null;
        }
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            return null;
        }
        try {
            return new Conn(generation); // counted in open until it is closed (a failed one closes itself)
        } catch (IOException | RuntimeException e) {
            throw e instanceof RedisConnectionException ? (RedisConnectionException) e
                    : new RedisConnectionException("cannot connect to Redis at " + address + ": " + e.getMessage(), e);
        }
    }

    /** Takes back a connection that answered; one from before a {@link #reset} is closed. */
    void giveBack(Conn c) {
        if (closed || c.generation != generation) {
            c.close();
        } else {
            idle.addFirst(c);
        }
    }

    /** Closes the idle connections; the lent ones close when they come back. */
    void reset() {
        generation++;
        Conn c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        reset();
    }

    /** One blocking connection. Not thread-safe: it is lent to one caller at a time. */
    final class Conn {
        final int generation;
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
        private boolean broken;
        private boolean used;
        private boolean closedByServer;
        /** Whether the current answer's first byte came. */
        private boolean started;
        private boolean shut;

        private Conn(int generation) throws IOException {
            this.generation = generation;
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(address, connectTimeoutMs);
                s.setSoTimeout(timeoutMs);
                this.socket = s;
                this.out = s.getOutputStream();
                this.in = new BufferedInputStream(s.getInputStream(), 8192);
                if (password != null && !password.isEmpty()) {
                    Object ok = username != null && !username.isEmpty()
                            ? command(new Object[] {"AUTH", username, password}) : command(new Object[] {"AUTH", password});
                    requireOk(ok, "AUTH");
                }
                if (database != 0) {
                    requireOk(command(new Object[] {"SELECT", Integer.toString(database)}), "SELECT");
                }
                if (clientName != null && !clientName.isEmpty()) {
                    requireOk(command(new Object[] {"CLIENT", "SETNAME", clientName}), "CLIENT SETNAME");
                }
                used = false;
            } catch (IOException | RuntimeException e) {
                if (!shut) {
                    shut = true;
                    open.decrementAndGet();
                }
                s.close();
                throw e;
            }
        }

        private void requireOk(Object answer, String what) {
            if (!"OK".equals(answer)) {
                throw new RedisConnectionException("Redis at " + address + " answered " + what + " with " + answer);
            }
        }

        /**
         * Writes {@code parts} (each {@code byte[]} or {@code String}) as one command and reads its answer.
         *
         * @throws RedisException the server's error answer (the connection stays usable)
         * @throws RedisTimeoutException no answer within the timeout (the connection is closed)
         * @throws RedisConnectionException the connection failed (it is closed)
         */
        Object command(Object[] parts) {
            try {
                buffer.reset();
                header('*', parts.length);
                for (Object p : parts) {
                    byte[] b = p instanceof byte[] ? (byte[]) p : ((String) p).getBytes(StandardCharsets.UTF_8);
                    header('$', b.length);
                    buffer.write(b, 0, b.length);
                    buffer.write('\r');
                    buffer.write('\n');
                }
                buffer.writeTo(out);
                out.flush();
                started = false;
                try {
                    return read();
                } finally {
                    used = true;
                }
            } catch (SocketTimeoutException e) {
                fail();
                throw new RedisTimeoutException("Redis at " + address + " did not answer within " + timeoutMs + " ms");
            } catch (IOException e) {
                // closed or reset before any byte of the answer: what a server restart or idle timeout leaves
                closedByServer = !started && (e instanceof java.io.EOFException || e instanceof java.net.SocketException);
                fail();
                throw new RedisConnectionException("the connection to Redis at " + address + " failed: " + e.getMessage(), e);
            }
        }

        /** Whether it answered a command before (it was kept idle since). */
        boolean used() {
            return used;
        }

        /** Whether it failed because the server had closed or reset it (not a timeout, not a malformed answer). */
        boolean closedByServer() {
            return closedByServer;
        }

        /** Whether this connection failed (then it is closed, and must not be given back). */
        boolean broken() {
            return broken;
        }

        private void fail() {
            broken = true;
            close();
        }

        void close() {
            if (shut) {
                return;
            }
            shut = true;
            open.decrementAndGet();
            try {
                socket.close();
            } catch (IOException e) {
                // closing: nothing left to do with it
            }
        }

        private void header(char kind, int n) {
            buffer.write(kind);
            byte[] digits = Integer.toString(n).getBytes(StandardCharsets.US_ASCII);
            buffer.write(digits, 0, digits.length);
            buffer.write('\r');
            buffer.write('\n');
        }

        private Object read() throws IOException {
            int kind = in.read();
            started |= kind >= 0;
            switch (kind) {
                case '+':
                    return line();
                case '-':
                    throw new RedisException(line());
                case ':':
                    return Long.parseLong(line());
                case '$': {
                    int n = Integer.parseInt(line());
                    if (n < 0) {
                        return null;
                    }
                    byte[] b = in.readNBytes(n);
                    if (b.length < n || in.read() != '\r' || in.read() != '\n') {
                        throw new java.io.EOFException("the connection closed inside an answer");
                    }
                    return new String(b, StandardCharsets.UTF_8);
                }
                case '*': {
                    int n = Integer.parseInt(line());
                    if (n < 0) {
                        return null;
                    }
                    List<Object> items = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        try {
                            items.add(read());
                        } catch (RedisException e) {
                            items.add(e); // an error inside an array (not sent by cloudg's scripts): kept, not thrown midway
                        }
                    }
                    for (Object item : items) {
                        if (item instanceof RedisException) {
                            throw (RedisException) item;
                        }
                    }
                    return items;
                }
                case -1:
                    throw new java.io.EOFException("Redis closed the connection");
                default:
                    throw new IOException("unexpected answer from Redis (type byte " + kind + ")");
            }
        }

        private String line() throws IOException {
            StringBuilder sb = new StringBuilder(16);
            for (int c = in.read(); ; c = in.read()) {
                if (c < 0) {
                    throw new java.io.EOFException("Redis closed the connection");
                }
                if (c == '\r') {
                    if (in.read() != '\n') {
                        throw new IOException("malformed answer from Redis");
                    }
                    return sb.toString();
                }
                sb.append((char) c);
            }
        }
    }
}
