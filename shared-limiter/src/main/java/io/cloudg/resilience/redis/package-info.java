/**
 * The fleet-wide governor state: a {@link io.cloudg.resilience.spi.StateStore} on Redis (Redisson), whose
 * every read-modify-write is a Lua script: one library, {@code cloudg.lua}, with each rule of
 * {@code io.cloudg.resilience.core} once, line for line, and the entry points calling it on every path. On
 * Redis 7 it is loaded once as a function library ({@code FUNCTION LOAD}, called with {@code FCALL}); on
 * Redis 6 each entry point is the library plus one line, called by {@code EVALSHA}, and every run defines
 * the library again ({@code Script}).
 *
 * <ul>
 *   <li><b>Parts</b>: {@code RedisStateStore} builds them and hands each call on: {@code HotPath} (admit,
 *       outcome, slots; {@code PreparedLeaf} encodes a leaf's keys and limits once), {@code RetryRefunds},
 *       {@code Registrations}, {@code StateReader} (snapshots, troubled views, core types). Under them:
 *       {@code ScriptArgs}, every entry point's keys and arguments by name ({@code cloudg.lua} names the same
 *       in each entry point's first lines; {@code ScriptArgsTest} fails on any difference), {@code ScriptCalls}
 *       (timeouts, errors), {@code ScriptRunner} and its {@code Lane}s (the pipelined connections),
 *       {@code DeferredReleases}, and {@code RedissonInternals}, the only class that touches Redisson's
 *       internals ({@code RedissonInternalsTest} fails if another does).</li>
 *   <li><b>Keys</b> ({@link io.cloudg.resilience.redis.RedisKeys}): {@code {prefix:provider:account:estate}:leaf2:...}
 *       (a leaf's hot fields packed in one field),
 *       {@code :account}, {@code :slots} (the bulkhead: one hash, a field per lease and a packed counter) share one Cluster slot per
 *       provider x account x estate (the estate its provider's calls go to, once told: {@code EstateKeyed}; so two
 *       estates with the same account ids keep apart learned rates, buckets and bulkheads under one prefix);
 *       {@code {prefix:provider}:global} and {@code :budget} have one per provider.</li>
 *   <li><b>Reading the troubled state</b> (the report, the gauges): each account keeps an index of its
 *       troubled leaves ({@code :troubled}, beside them, written by the scripts when a write leaves a leaf
 *       troubled), and the estate a registry of the accounts in use ({@code {prefix:}:accounts}, renewed by
 *       each store every half TTL); a read checks and prunes each index in one script, so it costs the
 *       troubled leaves, not the key set.</li>
 *   <li><b>Round trips</b>: one script before an attempt (breaker, leaf, account bucket, bulkhead slot),
 *       one after (AIMD, breaker verdict, release), which the caller waits for only when the verdict is
 *       FAILURE, and which a plain success of a leaf its admission found steady skips altogether: its slot
 *       release is held back up to 2 ms and sent with the others of its bulkhead in one {@code HDEL}
 *       ({@code DeferredReleases}; a slot operation or a full admission sends them first, so the cap is
 *       never exceeded and, in one process, every answer is the in-memory store's); the provider-wide bucket adds one only when {@code global_max_rps} is set, a budget take
 *       only for a paid retry; refunds are batched 10 to a write (the shared balance lags by under one token
 *       per worker). Scripts are called by SHA and reloaded on NOSCRIPT; they travel pipelined over a
 *       connection of their own per node, in queue order per provider x account, and what is queued side
 *       by side runs as one batch ({@code ScriptRunner}, the library's {@code batch}).</li>
 *   <li><b>Time</b>: the quota state's is Redis {@code TIME}, read inside every script; an injected clock
 *       exists only for the contract suite ({@link io.cloudg.resilience.redis.StoreClock}). This process's own
 *       timing (when to register an account again) reads the governor's {@code TimeSource}; nothing here reads
 *       the system clock.</li>
 *   <li><b>Leases</b>: bulkhead slots and breaker probes expire in server time, so a killed worker's slots
 *       come back and a hung probe never wedges a breaker.</li>
 *   <li><b>Cost</b>: a governed call is 4 Redis commands and a share of an {@code HDEL} on the common path
 *       (leaf HMGET + HSET of one packed field, bulkhead HINCRBY + HSETNX with nothing read; a plain success
 *       of a steady leaf runs no script); TTLs are refreshed lazily, a write that changes nothing is none.</li>
 *   <li><b>Persistence</b>: learned leaf state outlives its last write by 1 to 1.5 {@code learned_ttl_hours}
 *       and carries a format version; another version is refused ({@link io.cloudg.resilience.redis.StateFormatException}).</li>
 *   <li><b>Degraded mode</b> ({@link io.cloudg.resilience.redis.DegradingStateStore}, rules in {@code Outages}):
 *       a call Redis fails is paced locally; calls failing for {@code degrade_after_seconds} mean local pacing at
 *       the process's share of every limit ({@code fleet_size_hint}, or more processes seen in
 *       {@code {prefix:}:processes}, {@code Members}), one WARNING, {@code "governor": "degraded"} in the
 *       report, a probe per {@code probe_interval_seconds} to go back, and no burst at either end.</li>
 *   <li><b>Partial loss</b> (rules in {@code Presence}): a process whose heartbeat is overdue in
 *       {@code {prefix:}:processes} (20 s of Redis time) is presumed degraded until
 *       {@code presumed_degraded_seconds}; meanwhile the processes that still reach Redis spend only
 *       {@code (fleet - missing) / fleet} of every shared bucket and bulkhead, so that the fleet, the degraded
 *       ones' local pacing included, stays within each quota. The heartbeat's reply carries the counts; each
 *       admission passes the share inside its packed limits, so the hot path reads nothing more.</li>
 *   <li><b>Start</b>: before a store is built, {@link io.cloudg.resilience.redis.RedisPreflight} asks Redis
 *       once on a plain connection (no pool, no retries) and turns what failed into one line naming the
 *       setting: a refused or missing password, an untrusted or misnamed certificate, an unknown host, a
 *       closed port, silence. TLS trusts the CA of {@code ratelimit.redis.ca_file} / {@code trust_store} for
 *       these connections only ({@code RedisTrust}), never the JVM-wide trust store.</li>
 *   <li>Built by {@link io.cloudg.resilience.redis.StateStores} from {@code ratelimit.backend: redis};
 *       {@link io.cloudg.resilience.redis.RedisRateLimitAdmin} backs {@code cloudg ratelimit show|reset}.</li>
 * </ul>
 */
package io.cloudg.resilience.redis;
