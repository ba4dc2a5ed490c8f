package io.cloudg.resilience.redis;

import io.cloudg.resilience.spi.Scope;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The key layout of the Redis backend. Pure: builds keys from scopes and reads scopes back from keys.
 *
 * <pre>
 * {&lt;prefix&gt;:&lt;provider&gt;:&lt;account&gt;:&lt;endpoint&gt;}:leaf2:&lt;region&gt;/&lt;service&gt;/&lt;operation&gt;  leaf bucket + AIMD + breaker (hash)
 * {&lt;prefix&gt;:&lt;provider&gt;:&lt;account&gt;:&lt;endpoint&gt;}:account                              account bucket (hash)
 * {&lt;prefix&gt;:&lt;provider&gt;:&lt;account&gt;:&lt;endpoint&gt;}:slots                                bulkhead leases (hash: id -&gt; expiry, c)
 * {&lt;prefix&gt;:&lt;provider&gt;:&lt;account&gt;:&lt;endpoint&gt;}:troubled                             index of troubled leaves (set of leaf keys)
 * {&lt;prefix&gt;:&lt;provider&gt;}:global                                        provider-wide bucket (hash)
 * {&lt;prefix&gt;:}:accounts                                                  registry of the accounts' indexes (sorted set)
 * {&lt;prefix&gt;:}:processes                                                 live processes (sorted set: id -&gt; last said, server time)
 * {&lt;prefix&gt;:&lt;provider&gt;}:budget                                        retry budget (hash)
 * </pre>
 *
 * The part in braces is the Redis Cluster hash tag: everything one admission or one outcome touches
 * (leaf, account bucket, bulkhead) lives in the slot of its provider x account, so each is one script on
 * one node; provider-wide state has a slot of its own. Scope parts are percent-encoded (every character
 * outside {@code [A-Za-z0-9._-]}), so a key never holds a glob character, a brace or a colon of its own
 * and can be read back unambiguously. The prefix (one fleet's state) must match {@code [A-Za-z0-9._-]+}.
 *
 * <p>An account's keys name the endpoint of the estate its provider's calls go to ({@code aws} for
 * {@code aws:123456789012@aws}, {@code http://127.0.0.1:4566} for a simulator; encoded), as {@link #estateOf}
 * tells it for the provider: two estates with the same account ids at different endpoints keep apart leaves,
 * account buckets and bulkheads under one prefix, and every process mapping an account at one endpoint shares
 * them, whatever identity its configuration gives the estate ({@link #shared}). A provider whose estate is not told (before AWS's discovery
 * found the management account, a Redis written before estates) has keys without that part,
 * {@code {<prefix>:<provider>:<account>}:...}. Provider-wide state (the {@code global} bucket, the retry budget)
 * and the registries are the prefix's, whatever the estate.
 *
 * <p>A leaf's key names its layout: {@code leaf2} holds the hot fields packed in one field (see cloudg.lua);
 * keys of the first layout ({@code leaf}) are no longer read and expire with their TTL, so during a rolling
 * upgrade workers of the two versions keep separate leaves.
 *
 * <p>Keys carry scope names only (account ids, regions, service and operation names), never credentials.
 */
public final class RedisKeys {
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** What a key holds. */
    public enum Kind {
        LEAF("leaf2"), ACCOUNT("account"), BULKHEAD("slots"), TROUBLED("troubled"), GLOBAL("global"), BUDGET("budget"),
        REGISTRY("accounts"), PROCESSES("processes");

        final String suffix;

        Kind(String suffix) {
            this.suffix = suffix;
        }
    }

    /**
     * A key read back: its kind, the scope it belongs to (none for {@link Kind#REGISTRY} and
     * {@link Kind#PROCESSES}), and the estate an account's key names (null: none, or not an account's key).
     */
    public record Parsed(Kind kind, Scope scope, String estate) {
        public Parsed(Kind kind, Scope scope) {
            this(kind, scope, null);
        }
    }

    private final String prefix;
    private final Function<String, String> estateOf;

    /** Keys that name no estate. */
    public RedisKeys(String prefix) {
        this(prefix, p -> null);
    }

    /**
     * @param estateOf the estate a provider's calls go to, or null while it is not known; read at every key
     *        built (a store caches what it built, and forgets a provider's when its estate is told)
     */
    public RedisKeys(String prefix, Function<String, String> estateOf) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("key prefix must match [A-Za-z0-9._-]{1,64}, but was "
                    + (prefix == null ? "null" : "\"" + prefix + "\""));
        }
        this.prefix = prefix;
        this.estateOf = estateOf;
    }

    /** The estate {@code provider}'s keys name now, or null. */
    public String estateOf(String provider) {
        return estateOf.apply(provider);
    }

    /** Whether {@code p} is a key of the state this store uses now: of its provider's estate, or of none when none is told. */
    public boolean current(Parsed p) {
        return p.scope() == null || p.kind() == Kind.GLOBAL || p.kind() == Kind.BUDGET
                || java.util.Objects.equals(p.estate(), shared(p.scope().provider(), estateOf(p.scope().provider())));
    }

    public String prefix() {
        return prefix;
    }

    /** The SCAN pattern of every key of this prefix. */
    public String scanPattern() {
        return "{" + prefix + ":*";
    }

    /** The SCAN pattern of every leaf of this prefix. */
    public String leafPattern() {
        return "{" + prefix + ":*}:" + Kind.LEAF.suffix + ":*";
    }

    private String accountTag(Scope s) {
        String estate = estateOf(s.provider());
        return "{" + prefix + ":" + enc(s.provider()) + ":" + enc(s.account())
                + (estate == null ? "" : ":" + enc(endpoint(estate))) + "}:";
    }

    /** The endpoint part of an estate ({@code http://127.0.0.1:4566} of {@code aws:123456789012@http://127.0.0.1:4566}). */
    static String endpoint(String estate) {
        int at = estate.indexOf('@');
        return at < 0 ? estate : estate.substring(at + 1);
    }

    /** The provider part of an estate, or of the beginning of one ({@code aws} of {@code aws:1@aws}). */
    private static String providerOf(String estate) {
        for (int i = 0; i < estate.length(); i++) {
            if (estate.charAt(i) == ':' || estate.charAt(i) == '@') {
                return estate.substring(0, i);
            }
        }
        return estate;
    }

    /**
     * What the keys of {@code estate}'s accounts name, as {@link Parsed#estate} reads it back: its provider and
     * endpoint, any identity ({@code aws:*@http://127.0.0.1:4566}). A quota belongs to an account at an endpoint,
     * and account ids are unique there; the identity (management account, tenant, organization or projects) is
     * left out so that every process mapping an account through one Redis shares its buckets, however each was
     * configured (an organization-wide sweep and a map of a few of its projects, a tenant named or not).
     */
    public static String shared(String estate) {
        return shared(providerOf(estate), estate);
    }

    /** {@link #shared(String)} of {@code provider}'s estate; null for none. */
    private static String shared(String provider, String estate) {
        return estate == null ? null : provider + ":*@" + endpoint(estate);
    }

    /**
     * Whether {@code selection} (an estate as the user names it, or its beginning) selects keys naming
     * {@code keyEstate} ({@link #shared} form): an estate selects its provider's keys at its endpoint (or at an
     * endpoint its endpoint part begins), whatever the identity.
     */
    public static boolean selects(String selection, String keyEstate) {
        if (selection.indexOf('@') < 0) {
            return keyEstate.startsWith(selection);
        }
        return keyEstate.startsWith(providerOf(selection) + ":*@") && endpoint(keyEstate).startsWith(endpoint(selection));
    }

    private String providerTag(String provider) {
        return "{" + prefix + ":" + enc(provider) + "}:";
    }

    public String leaf(Scope leaf) {
        return accountTag(leaf) + Kind.LEAF.suffix + ":" + enc(leaf.region()) + "/" + enc(leaf.service()) + "/"
                + enc(leaf.operation());
    }

    public String account(Scope account) {
        return accountTag(account) + Kind.ACCOUNT.suffix;
    }

    public String bulkhead(Scope account) {
        return accountTag(account) + Kind.BULKHEAD.suffix;
    }

    /** The index of {@code account}'s troubled leaves (a set of leaf keys; cloudg.lua writes it). */
    public String troubled(Scope account) {
        return accountTag(account) + Kind.TROUBLED.suffix;
    }

    /**
     * The registry of the estate's account indexes (a sorted set; cloudg.lua's {@code register}): its tag is
     * the prefix and an empty provider, a slot of its own that SCAN of {@link #scanPattern()} still finds.
     */
    public String registry() {
        return "{" + prefix + ":}:" + Kind.REGISTRY.suffix;
    }

    /**
     * The estate's live processes (a sorted set of process ids scored by the time each last said it is live;
     * cloudg.lua's {@code member}), whose size sets a degraded process's share. Not state of a scope: only a reset of
     * everything removes it, and an entry lapses on its own.
     */
    public String processes() {
        return "{" + prefix + ":}:" + Kind.PROCESSES.suffix;
    }

    public String global(String provider) {
        return providerTag(provider) + Kind.GLOBAL.suffix;
    }

    public String budget(String provider) {
        return providerTag(provider) + Kind.BUDGET.suffix;
    }

    /** Reads a key of this prefix back; empty for a key that is not one of ours. */
    public Optional<Parsed> parse(String key) {
        String head = "{" + prefix + ":";
        int close = key.indexOf("}:");
        if (!key.startsWith(head) || close < 0) {
            return Optional.empty();
        }
        String[] tag = key.substring(head.length(), close).split(":", -1);
        String rest = key.substring(close + 2);
        try {
            if (tag.length == 1) {
                if (tag[0].isEmpty()) {
                    for (Kind k : new Kind[] {Kind.REGISTRY, Kind.PROCESSES}) {
                        if (rest.equals(k.suffix)) {
                            return Optional.of(new Parsed(k, null));
                        }
                    }
                    return Optional.empty();
                }
                String provider = dec(tag[0]);
                for (Kind k : new Kind[] {Kind.GLOBAL, Kind.BUDGET}) {
                    if (rest.equals(k.suffix)) {
                        return Optional.of(new Parsed(k, Scope.provider(provider)));
                    }
                }
                return Optional.empty();
            }
            if (tag.length != 2 && (tag.length != 3 || tag[2].isEmpty())) {
                return Optional.empty();
            }
            Scope account = Scope.account(dec(tag[0]), dec(tag[1]));
            String estate = tag.length == 3 ? shared(account.provider() + "@" + dec(tag[2])) : null;
            for (Kind k : new Kind[] {Kind.ACCOUNT, Kind.BULKHEAD, Kind.TROUBLED}) {
                if (rest.equals(k.suffix)) {
                    return Optional.of(new Parsed(k, account, estate));
                }
            }
            String leafHead = Kind.LEAF.suffix + ":";
            if (rest.startsWith(leafHead)) {
                String[] p = rest.substring(leafHead.length()).split("/", -1);
                if (p.length == 3) {
                    return Optional.of(new Parsed(Kind.LEAF,
                            Scope.of(account.provider(), account.account(), dec(p[0]), dec(p[1]), dec(p[2])), estate));
                }
            }
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Percent-encodes everything outside {@code [A-Za-z0-9._-]}; null is the empty string. */
    static String enc(String part) {
        if (part == null) {
            return "";
        }
        StringBuilder b = null;
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (safe(c)) {
                if (b != null) {
                    b.append(c);
                }
                continue;
            }
            if (b == null) {
                b = new StringBuilder(part.length() + 8).append(part, 0, i);
            }
            int end = Character.isHighSurrogate(c) && i + 1 < part.length() ? i + 2 : i + 1;
            for (byte x : part.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                b.append('%').append(Character.toUpperCase(Character.forDigit((x >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(x & 0xF, 16)));
            }
            i = end - 1;
        }
        return b == null ? part : b.toString();
    }

    /** The inverse of {@link #enc}; the empty string is null. */
    static String dec(String part) {
        if (part.isEmpty()) {
            return null;
        }
        if (part.indexOf('%') < 0) {
            return part;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(part.length());
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '%' && i + 2 < part.length()) {
                out.write(Integer.parseInt(part.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean safe(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
                || c == '-';
    }
}
