package io.cloudg.mcp.guard.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.mcp.guard.GuardSnapshot;
import io.cloudg.mcp.guard.GuardStore;
import io.cloudg.mcp.guard.GuardUnavailableException;
import io.cloudg.mcp.guard.InFlight;
import io.cloudg.mcp.guard.RefusalReason;
import io.cloudg.mcp.guard.ScopeCooldown;
import io.cloudg.mcp.guard.StartDecision;
import io.cloudg.mcp.guard.StartRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The guard's state in Redis, so that every MCP server replica of one estate shares caps, cooldowns and
 * quotas. Three keys under one hash tag ({@code {<prefix>:mcp}:ops}, {@code :cooldown},
 * {@code :caller:<principal>}), so a script's keys share a Cluster slot; each operation is one Lua script
 * ({@code start.lua} is {@code GuardRules.decide}), atomic on the server; time is the server's
 * {@code TIME}, never a replica's clock. Scripts run by SHA and are loaded again after {@code NOSCRIPT}
 * (a restart or failover). Every script's work is bounded by the caps and the configured scopes.
 *
 * <p>A Redis error becomes {@link GuardUnavailableException}: the guard then refuses live operations
 * rather than run them unguarded.
 */
public final class RedisGuardStore implements GuardStore {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final RedissonClient client;
    private final RScript script;
    private final String tag;
    private final LongSupplier clockOffsetMillis;
    private final boolean ownsClient;
    private final String description;

    private RedisGuardStore(Builder b) {
        this.client = Objects.requireNonNull(b.client, "client");
        this.script = client.getScript(StringCodec.INSTANCE);
        this.tag = "{" + b.keyPrefix + ":mcp}";
        this.clockOffsetMillis = b.clockOffsetMillis;
        this.ownsClient = b.ownsClient;
        this.description = "redis " + b.describe + " prefix=" + b.keyPrefix;
    }

    public static Builder builder(RedissonClient client) {
        return new Builder(client);
    }

    private List<Object> keys(String principal) {
        List<Object> k = new ArrayList<>(3);
        k.add(tag + ":ops");
        k.add(tag + ":cooldown");
        k.add(tag + ":caller:" + principal);
        return k;
    }

    @Override
    public StartDecision tryStart(StartRequest r) {
        List<Object> args = new ArrayList<>();
        args.add(r.operationId());
        args.add(r.principal());
        args.add(r.tool());
        args.add(r.force() ? "1" : "0");
        args.add(Integer.toString(r.maxPerScope()));
        args.add(Integer.toString(r.maxTotal()));
        args.add(Integer.toString(r.callerMaxOperations()));
        args.add(Long.toString(r.callerWindowMillis()));
        args.add(Long.toString(r.leaseMillis()));
        args.add(Long.toString(clockOffsetMillis.getAsLong()));
        args.add(Integer.toString(r.scopes().size()));
        for (ScopeCooldown s : r.scopes()) {
            args.add(s.scope());
            args.add(Long.toString(s.cooldownMillis()));
        }
        List<String> out = run(GuardScript.START, keys(r.principal()), args);
        if ("started".equals(out.get(0))) {
            return StartDecision.start();
        }
        return StartDecision.refuse(RefusalReason.fromWire(out.get(1)), out.get(2), Long.parseLong(out.get(3)),
                out.subList(4, out.size()));
    }

    @Override
    public boolean renew(String operationId, long leaseMillis) {
        List<String> out = run(GuardScript.RENEW, keys("-").subList(0, 1),
                List.of(operationId, Long.toString(leaseMillis), Long.toString(clockOffsetMillis.getAsLong())));
        return "1".equals(out.get(0));
    }

    @Override
    public void finish(String operationId, List<ScopeCooldown> cooldowns) {
        List<Object> args = new ArrayList<>();
        args.add(operationId);
        args.add(Long.toString(clockOffsetMillis.getAsLong()));
        args.add(Integer.toString(cooldowns.size()));
        for (ScopeCooldown s : cooldowns) {
            args.add(s.scope());
            args.add(Long.toString(s.cooldownMillis()));
        }
        run(GuardScript.FINISH, keys("-").subList(0, 2), args);
    }

    @Override
    public GuardSnapshot snapshot(String principal, long callerWindowMillis) {
        List<String> out = run(GuardScript.SNAPSHOT, keys(principal),
                List.of(Long.toString(clockOffsetMillis.getAsLong()), Long.toString(callerWindowMillis)));
        int i = 0;
        long now = Long.parseLong(out.get(i++));
        int ops = Integer.parseInt(out.get(i++));
        List<InFlight> inFlight = new ArrayList<>();
        for (int k = 0; k < ops; k++) {
            InFlight f = parse(out.get(i++));
            if (f.deadlineMillis() > now) {
                inFlight.add(f);
            }
        }
        int pairs = Integer.parseInt(out.get(i++));
        Map<String, Long> cooling = new HashMap<>();
        for (int k = 0; k < pairs; k++) {
            String scope = out.get(i++);
            long until = Long.parseLong(out.get(i++));
            if (until > now) {
                cooling.put(scope, until);
            }
        }
        int callerStarts = Integer.parseInt(out.get(i));
        return new GuardSnapshot(now, inFlight, cooling, callerStarts);
    }

    private static InFlight parse(String json) {
        try {
            JsonNode n = JSON.readTree(json);
            List<String> scopes = new ArrayList<>();
            n.path("scopes").forEach(s -> scopes.add(s.asText()));
            return new InFlight(n.path("id").asText(), n.path("tool").asText(), n.path("principal").asText(), scopes,
                    Long.parseLong(n.path("started").asText()), Long.parseLong(n.path("deadline").asText()));
        } catch (IOException | NumberFormatException e) {
            throw new GuardUnavailableException("the guard's Redis state is not in the expected format: " + json, e);
        }
    }

    /** EVALSHA; on NOSCRIPT, SCRIPT LOAD and once more. */
    private List<String> run(GuardScript s, List<Object> keys, List<Object> args) {
        Object[] values = args.toArray();
        try {
            RScript.ReturnType type = s == GuardScript.RENEW ? RScript.ReturnType.INTEGER : RScript.ReturnType.MULTI;
            try {
                return strings(script.evalSha(RScript.Mode.READ_WRITE, s.sha, type, keys, values));
            } catch (RuntimeException e) {
                if (!noScript(e)) {
                    throw e;
                }
                script.scriptLoad(s.text);
                return strings(script.evalSha(RScript.Mode.READ_WRITE, s.sha, type, keys, values));
            }
        } catch (RuntimeException e) {
            throw new GuardUnavailableException("the live-operation guard's Redis (" + description + ") failed: "
                    + e.getMessage(), e);
        }
    }

    private static boolean noScript(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains("NOSCRIPT")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> strings(Object reply) {
        List<String> out = new ArrayList<>();
        if (!(reply instanceof List<?>)) {
            out.add(String.valueOf(reply));
            return out;
        }
        for (Object o : (List<?>) reply) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.shutdown();
        }
    }

    public static final class Builder {
        private final RedissonClient client;
        private String keyPrefix = "cloudg";
        private LongSupplier clockOffsetMillis = () -> 0L;
        private boolean ownsClient;
        private String describe = "";

        private Builder(RedissonClient client) {
            this.client = client;
        }

        /** The estate's key prefix ({@code ratelimit.redis.key_prefix}); the guard's keys are {@code {<prefix>:mcp}:*}. */
        public Builder keyPrefix(String p) {
            this.keyPrefix = Objects.requireNonNull(p);
            return this;
        }

        /**
         * Added to the server's {@code TIME} in every script: 0 in production. Tests pass a
         * {@code ManualTimeSource}'s elapsed milliseconds to move the shared clock forward without waiting.
         */
        public Builder clockOffsetMillis(LongSupplier offset) {
            this.clockOffsetMillis = Objects.requireNonNull(offset);
            return this;
        }

        /** Whether {@link #close()} shuts the client down. */
        public Builder ownsClient(boolean owns) {
            this.ownsClient = owns;
            return this;
        }

        /** The addresses, for the status report. */
        public Builder describe(String addresses) {
            this.describe = addresses;
            return this;
        }

        public RedisGuardStore build() {
            return new RedisGuardStore(this);
        }
    }
}
