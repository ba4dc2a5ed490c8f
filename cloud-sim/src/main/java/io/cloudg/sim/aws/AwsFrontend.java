package io.cloudg.sim.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.cloudg.sim.aws.wire.JsonReader;
import io.cloudg.sim.aws.wire.Pojos;
import io.cloudg.sim.aws.wire.QueryReader;
import io.cloudg.sim.aws.wire.RestReader;
import io.cloudg.sim.aws.wire.WireException;
import io.cloudg.sim.core.CallScope;
import io.cloudg.sim.gate.Gate;
import io.cloudg.sim.core.Provider;
import io.cloudg.sim.gate.QuotaPolicy;
import io.cloudg.sim.gate.Verdict;
import io.cloudg.sim.estate.AwsEstate;
import io.cloudg.sim.http.SimRequest;
import io.cloudg.sim.quota.BucketRef;
import io.cloudg.sim.http.SimResponse;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.SdkPojo;

/**
 * The single AWS endpoint. It tells the service from the SigV4 credential scope (else from the
 * {@code X-Amz-Target} prefix, the query {@code Version} or the REST route), the operation from the
 * target, {@code Action} or route, and the account from the access key id; then asks the {@link Gate},
 * reads the SDK request object generically, runs the handler and writes the answer in the service's
 * protocol. Unsigned requests default to {@code us-east-1}.
 */
public final class AwsFrontend {
    private static final String DEFAULT_REGION = "us-east-1";

    private final AwsCatalog catalog;
    private final AwsCall.AwsContext context;
    private final Gate gate;
    private final QuotaPolicy quotas;
    private final AtomicLong requestIds = new AtomicLong();
    private final String requestIdPrefix;

    public AwsFrontend(AwsCatalog catalog, AwsCall.AwsContext context, Gate gate, QuotaPolicy quotas, long seed) {
        this.catalog = catalog;
        this.context = context;
        this.gate = gate;
        this.quotas = quotas;
        this.requestIdPrefix = String.format("%08x-", (int) (seed ^ (seed >>> 32)));
    }

    private String nextRequestId() {
        long n = requestIds.incrementAndGet();
        return requestIdPrefix + String.format("%04x-%04x-%04x-%012x", (n >>> 48) & 0xffff, (n >>> 32) & 0xffff,
            (n >>> 16) & 0xffff, n & 0xffffffffffffL);
    }

    public SimResponse handle(SimRequest req) {
        String requestId = nextRequestId();
        String attempt = req.header("amz-sdk-request");
        if (attempt != null && attempt.startsWith("attempt=") && !attempt.startsWith("attempt=1;") && !attempt.equals("attempt=1")) {
            gate.counters().retry();
        }
        SigV4 sig = SigV4.of(req);
        AwsService service = sig == null ? null : AwsService.bySigningName(sig.service());
        String target = req.header("X-Amz-Target");
        String contentType = req.header("Content-Type");

        AwsOperation op;
        NavigableMap<String, String> form = null;
        AwsCatalog.RestMatch rest = null;
        if (target != null) {
            int dot = target.lastIndexOf('.');
            String prefix = dot < 0 ? "" : target.substring(0, dot);
            String name = target.substring(dot + 1);
            AwsService byTarget = AwsService.byTargetPrefix(prefix);
            if (byTarget == null || (service != null && service != byTarget)) {
                gate.counters().error();
                return AwsWire.unknownService(true, false, requestId, target);
            }
            service = byTarget;
            op = catalog.operation(service, name);
            if (op == null) {
                gate.counters().error();
                return AwsWire.error(service, requestId, AwsErrors.unknownOperation(service, name));
            }
        } else if (isForm(req, contentType)) {
            form = formParams(req);
            String action = form.get("Action");
            AwsService byVersion = AwsService.byQueryVersion(form.get("Version"));
            if (service == null || (byVersion != null && byVersion.signingName().equals(service.signingName()))) {
                service = byVersion; // ELB and ELBv2 sign alike; the API version tells them apart
            }
            if (service == null || !service.protocol().isQuery()) {
                gate.counters().error();
                return AwsWire.unknownService(false, true, requestId, "Action=" + action);
            }
            op = action == null ? null : catalog.operation(service, action);
            if (op == null) {
                gate.counters().error();
                return AwsWire.error(service, requestId, AwsErrors.unknownOperation(service, action));
            }
        } else {
            rest = service != null ? catalog.route(service, req) : catalog.routeAny(req);
            if (rest == null) {
                gate.counters().error();
                if (service != null) {
                    return AwsWire.error(service, requestId, AwsErrors.unknownOperation(service, req.method() + " "
                        + req.path()));
                }
                return AwsWire.unknownService(false, false, requestId, req.method() + " " + req.path());
            }
            op = rest.operation();
            service = op.service();
        }

        String region = service.global() ? AwsEstate.GLOBAL
            : sig == null || sig.region().isEmpty() || "aws-global".equals(sig.region()) ? DEFAULT_REGION : sig.region();
        AwsPrincipal principal = context.principals().resolve(sig == null ? null : sig.accessKeyId());
        if (context.estate().regionDisabled(principal.account(), region)) {
            gate.counters().error();
            return AwsWire.error(service, requestId, AwsErrors.regionNotEnabled(service, region));
        }
        CallScope scope = new CallScope(Provider.AWS, principal.account(), region, service.id(), op.name());
        BucketRef bucket = bucket(service, op, principal, region, form, rest, req);
        Verdict v = gate.enter(scope, bucket);
        SimResponse answer;
        if (v instanceof Verdict.Throttled t) {
            boolean hint = !quotas.realism().strict() || service.sendsRetryAfter();
            long secs = hint ? Math.max(1, TimeUnit.NANOSECONDS.toSeconds(t.retryAfterNanos() + 999_999_999L)) : 0;
            answer = AwsWire.error(service, requestId, AwsErrors.throttled(service, secs));
        } else if (v instanceof Verdict.Faulted f) {
            answer = switch (f.kind()) {
                case RESET -> SimResponse.reset(0);
                case CLOSE -> SimResponse.closed(0);
                case ACCESS_DENIED -> {
                    AwsError denied = AwsErrors.accessDenied(service, "User: " + principal.arn()
                        + " is not authorized to perform: " + service.signingName() + ":" + op.name());
                    yield AwsWire.error(service, requestId, op.name().equals("HeadBucket")
                        ? ServiceOperations.deniedWithRegion(context.estate(), rest.pathVars().get("Bucket"), denied)
                        : denied);
                }
                default -> AwsWire.error(service, requestId, AwsErrors.transientFailure(service));
            };
        } else {
            AwsCall.Meter meter = new AwsCall.Meter();
            answer = answer(op, service, region, principal, requestId, req, form, rest, meter);
            long delay = v.delayNanos() + gate.itemsNanos(meter.items());
            answer = headless(req, answer);
            return delay > 0 ? answer.withDelay(delay) : answer;
        }
        answer = headless(req, answer);
        return v.delayNanos() > 0 ? answer.withDelay(v.delayNanos()) : answer;
    }

    /** The answer to a HEAD request (S3's HeadBucket) is its status and headers only, errors included. */
    private static SimResponse headless(SimRequest req, SimResponse answer) {
        return "HEAD".equals(req.method()) ? answer.withoutBody() : answer;
    }

    /**
     * The bucket a call is charged to: EC2's unpaginated bucket for resource-intensive Describe* calls without
     * pagination or filters; in strict, S3's per-bucket read or write rate for calls that address a bucket;
     * else the service's (or operation's) bucket of the caller's account and region.
     */
    private BucketRef bucket(AwsService service, AwsOperation op, AwsPrincipal principal, String region,
                             NavigableMap<String, String> form, AwsCatalog.RestMatch rest, SimRequest req) {
        if (service == AwsService.EC2 && Ec2Operations.unpaginated(op.name(), form)) {
            return quotas.ec2Unpaginated(principal.account(), region, op.name());
        }
        if (service == AwsService.S3 && quotas.realism().strict() && rest != null && rest.pathVars().get("Bucket") != null) {
            boolean write = !req.method().equals("GET") && !req.method().equals("HEAD");
            return quotas.s3Bucket(rest.pathVars().get("Bucket"), write);
        }
        return quotas.aws(principal.account(), region, service.id(), op.name());
    }

    private SimResponse answer(AwsOperation op, AwsService service, String region, AwsPrincipal principal,
                               String requestId, SimRequest req, NavigableMap<String, String> form,
                               AwsCatalog.RestMatch rest, AwsCall.Meter meter) {
        AwsCall call = new AwsCall(service, op.name(), region, principal, requestId, req, context, meter);
        try {
            SdkPojo request = readRequest(op, req, form, rest);
            SdkPojo response = op.handler().handle(call, request);
            return AwsWire.success(op, requestId, response);
        } catch (AwsError e) {
            return AwsWire.error(service, requestId, e);
        } catch (WireException e) {
            return AwsWire.error(service, requestId, AwsErrors.invalidParameter(service, e.getMessage()));
        }
    }

    private static SdkPojo readRequest(AwsOperation op, SimRequest req, NavigableMap<String, String> form,
                                       AwsCatalog.RestMatch rest) {
        SdkPojo builder = op.requestBuilder().get();
        AwsProtocol p = op.service().protocol();
        if (p.isQuery()) {
            return QueryReader.read(builder, form, p == AwsProtocol.EC2_QUERY);
        }
        if (rest != null) {
            RestReader.fill(builder, req, rest.pathVars());
            if (p == AwsProtocol.REST_JSON && req.body().length > 0) {
                JsonReader.fill(builder, JsonReader.parse(req.body()));
            }
            return Pojos.build(builder);
        }
        JsonNode body = JsonReader.parse(req.body());
        JsonReader.fill(builder, body);
        return Pojos.build(builder);
    }

    private static boolean isForm(SimRequest req, String contentType) {
        if (contentType != null && contentType.startsWith("application/x-www-form-urlencoded")) {
            return true;
        }
        return "GET".equals(req.method()) && req.hasQueryParam("Action");
    }

    private static NavigableMap<String, String> formParams(SimRequest req) {
        NavigableMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : req.query().entrySet()) {
            if (!e.getValue().isEmpty()) {
                out.put(e.getKey(), e.getValue().get(0));
            }
        }
        if (req.body().length > 0) {
            QueryStringDecoder d = new QueryStringDecoder(req.bodyUtf8(), StandardCharsets.UTF_8, false, 100_000);
            for (Map.Entry<String, List<String>> e : d.parameters().entrySet()) {
                if (!e.getValue().isEmpty()) {
                    out.put(e.getKey(), e.getValue().get(0));
                }
            }
        }
        return out;
    }
}
