package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import io.cloudg.resilience.config.LeafLimit;
import io.cloudg.resilience.config.RedisSettings;
import io.cloudg.resilience.core.BreakerLimit;
import io.cloudg.resilience.core.CallVerdict;
import io.cloudg.resilience.spi.Admission;
import io.cloudg.resilience.spi.AdmitRequest;
import io.cloudg.resilience.spi.AttemptOutcome;
import io.cloudg.resilience.spi.OutcomeRequest;
import io.cloudg.resilience.spi.SlotLease;
import io.cloudg.resilience.spi.SlotRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker of a test fleet, run as its own JVM by the multi-process tests, on a {@link RedisStateStore}
 * with production time (Redis TIME). Talks over stdin/stdout:
 * <ul>
 *   <li>{@code rate URL PREFIX THREADS}: prints {@code READY}, waits for {@code GO <start> <seconds>} (start in
 *       Redis TIME nanoseconds), then THREADS callers admit on the shared leaf as fast as it lets them and send
 *       when told, each send timed by Redis TIME, the fleet's one clock; prints {@code SENT <n0> <n1> ...}: the
 *       sends in each of the window's Redis seconds.</li>
 *   <li>{@code hold URL PREFIX SLOTS LEASE_MS}: takes SLOTS bulkhead slots and the leaf's breaker probe,
 *       prints {@code HELD <probe generation>}, then renews the slots every LEASE_MS/4 until killed.</li>
 * </ul>
 */
public final class FleetWorkerMain {
    static final long SEC = 1_000_000_000L;
    static final Scope ACCOUNT = Scope.account("aws", "999988887777");
    static final Scope LEAF = Scope.of("aws", "999988887777", "us-east-1", "ec2", "DescribeInstances");
    static final LeafLimit LIMIT = new LeafLimit(20, 40, 0.2, true);
    static final long BREAKER_COOLDOWN = SEC / 2;
    static final BreakerLimit BREAKER = new BreakerLimit(1, BREAKER_COOLDOWN, 600 * SEC, 2 * SEC);

    private FleetWorkerMain() {
    }

    static RedisStateStore store(String url, String prefix) {
        RedisSettings s = RedisSettings.builder().url(url).keyPrefix(prefix).build();
        return StateStores.redisStore(s, RedisClients.create(s, k -> null), true);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (RedisStateStore store = store(args[1], args[2])) {
            if (args[0].equals("rate")) {
                rate(store, Integer.parseInt(args[3]), in);
            } else {
                hold(store, Integer.parseInt(args[3]), Long.parseLong(args[4]));
            }
        }
        System.exit(0);
    }

    private static void rate(RedisStateStore store, int threads, BufferedReader in) throws Exception {
        store.ping();
        System.out.println("READY");
        System.out.flush();
        String[] go = in.readLine().split(" ");
        long start = Long.parseLong(go[1]);
        int seconds = Integer.parseInt(go[2]);
        long end = start + seconds * SEC;
        for (long now = store.now(); now < start; now = store.now()) {
            LockSupport.parkNanos(start - now);
        }
        AtomicLongArray perSecond = new AtomicLongArray(seconds);
        AdmitRequest req = new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, null, null, 1);
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (true) {
                    Admission a = store.admit(req);
                    LockSupport.parkNanos(a.waitNanos());
                    long sendAt = store.now(); // the send, on the clock that judged the reservation
                    if (sendAt >= end) {
                        break;
                    }
                    perSecond.incrementAndGet((int) ((sendAt - start) / SEC));
                    store.record(new OutcomeRequest(LEAF, LIMIT, AttemptOutcome.SUCCESS, -1, null, CallVerdict.NONE, 0,
                            null));
                }
            });
            t.start();
            ts.add(t);
        }
        for (Thread t : ts) {
            t.join();
        }
        StringBuilder line = new StringBuilder("SENT");
        for (int i = 0; i < seconds; i++) {
            line.append(' ').append(perSecond.get(i));
        }
        System.out.println(line);
        System.out.flush();
    }

    private static void hold(RedisStateStore store, int slots, long leaseMs) throws Exception {
        SlotRequest req = new SlotRequest(ACCOUNT, slots, leaseMs * 1_000_000L);
        List<SlotLease> held = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            SlotLease l = store.tryAcquireSlot(req);
            if (l == null) {
                throw new IllegalStateException("slot " + i + " was not free");
            }
            held.add(l);
        }
        Admission probe = store.admit(new AdmitRequest("aws", null, ACCOUNT, null, LEAF, LIMIT, BREAKER, null, 1));
        System.out.println("HELD " + (probe.breaker().probe() ? probe.breaker().probeGeneration() : -1));
        System.out.flush();
        while (true) {
            Thread.sleep(leaseMs / 4);
            for (SlotLease l : held) {
                store.renewSlot(l, leaseMs * 1_000_000L);
            }
        }
    }
}
