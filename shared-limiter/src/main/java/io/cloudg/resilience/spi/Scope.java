package io.cloudg.resilience.spi;

import java.util.Objects;

/**
 * What a cloud API call is attributed to: {@code provider / account / region / service [/ operation]}.
 *
 * <p>Prints as {@code aws/123456789012/us-east-1/ec2}, with {@code /DescribeSubnets} appended when the
 * scope carries an operation. Absent parts (an Azure scope has no region: ARM throttles per
 * subscription x resource provider) are skipped when printing. Which parts a rate-limit bucket uses is
 * decided by the governor's configuration, not here: see {@link #withoutOperation()}.
 *
 * <p>Immutable; the hash code and printed form are computed once, because scopes are used as map keys on
 * every governed call.
 */
public final class Scope {
    private final String provider;
    private final String account;
    private final String region;
    private final String service;
    private final String operation;
    private final int hash;
    private String text;

    private Scope(String provider, String account, String region, String service, String operation) {
        this.provider = requirePart("provider", provider);
        this.account = optionalPart("account", account);
        this.region = optionalPart("region", region);
        this.service = optionalPart("service", service);
        this.operation = optionalPart("operation", operation);
        this.hash = hash(this.provider, this.account, this.region, this.service, this.operation);
    }

    /** {@code base} with {@code operation}, which is null or already checked: the governor derives one per call. */
    private Scope(Scope base, String operation) {
        this.provider = base.provider;
        this.account = base.account;
        this.region = base.region;
        this.service = base.service;
        this.operation = operation;
        this.hash = hash(provider, account, region, service, operation);
    }

    /** {@code Objects.hash} of the five parts, without its array. */
    private static int hash(String provider, String account, String region, String service, String operation) {
        int h = 31 + provider.hashCode();
        h = 31 * h + Objects.hashCode(account);
        h = 31 * h + Objects.hashCode(region);
        h = 31 * h + Objects.hashCode(service);
        return 31 * h + Objects.hashCode(operation);
    }

    /** A full scope. {@code region} and {@code operation} may be null. */
    public static Scope of(String provider, String account, String region, String service, String operation) {
        return new Scope(provider, account, region, service, operation);
    }

    public static Scope of(String provider, String account, String region, String service) {
        return new Scope(provider, account, region, service, null);
    }

    /** A provider-wide scope, e.g. for the {@code global_max_rps} bucket. */
    public static Scope provider(String provider) {
        return new Scope(provider, null, null, null, null);
    }

    /** An account-wide scope, e.g. for the {@code account_max_rps} bucket and the bulkhead. */
    public static Scope account(String provider, String account) {
        return new Scope(provider, account, null, null, null);
    }

    /**
     * Parses the printed form back. Five parts are provider/account/region/service/operation, four are
     * provider/account/region/service, three provider/account/service (no region), two provider/account.
     */
    public static Scope parse(String text) {
        String[] p = text.split("/", -1);
        switch (p.length) {
            case 1: return provider(p[0]);
            case 2: return account(p[0], p[1]);
            case 3: return of(p[0], p[1], null, p[2], null);
            case 4: return of(p[0], p[1], p[2], p[3], null);
            case 5: return of(p[0], p[1], p[2], p[3], p[4]);
            default: throw new IllegalArgumentException(
                    "scope must look like provider/account/region/service[/operation], but was \"" + text + "\"");
        }
    }

    public String provider() { return provider; }
    public String account() { return account; }
    public String region() { return region; }
    public String service() { return service; }
    public String operation() { return operation; }

    /** This scope at service granularity (the operation dropped). Returns {@code this} if it has none. */
    public Scope withoutOperation() {
        return operation == null ? this : new Scope(this, null);
    }

    public Scope withOperation(String op) {
        return Objects.equals(op, operation) ? this : new Scope(provider, account, region, service, op);
    }

    /** The account-wide scope this one belongs to. */
    public Scope accountScope() {
        return account(provider, account);
    }

    private static String requirePart(String name, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("scope " + name + " must be non-empty, but was " + quote(value));
        }
        return checkChars(name, value);
    }

    private static String optionalPart(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        return checkChars(name, value);
    }

    private static String checkChars(String name, String value) {
        if (value.indexOf('/') >= 0) {
            throw new IllegalArgumentException("scope " + name + " must not contain '/', but was " + quote(value));
        }
        return value;
    }

    private static String quote(String v) {
        return v == null ? "null" : "\"" + v + "\"";
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Scope)) {
            return false;
        }
        Scope s = (Scope) o;
        return hash == s.hash && provider.equals(s.provider) && Objects.equals(account, s.account)
                && Objects.equals(region, s.region) && Objects.equals(service, s.service)
                && Objects.equals(operation, s.operation);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        String t = text;
        if (t == null) {
            StringBuilder b = new StringBuilder(64).append(provider);
            for (String part : new String[] {account, region, service, operation}) {
                if (part != null) {
                    b.append('/').append(part);
                }
            }
            text = t = b.toString();
        }
        return t;
    }
}
