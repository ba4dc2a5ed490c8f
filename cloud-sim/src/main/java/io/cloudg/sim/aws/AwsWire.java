package io.cloudg.sim.aws;

import io.cloudg.sim.aws.wire.JsonWriter;
import io.cloudg.sim.aws.wire.XmlWriter;
import io.cloudg.sim.http.SimResponse;
import java.nio.charset.StandardCharsets;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallLocation;
import software.amazon.awssdk.core.traits.PayloadTrait;

/** Puts SDK responses and {@link AwsError}s on the wire in each protocol's envelope. */
final class AwsWire {
    private static final String XML_DECL = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

    private AwsWire() {
    }

    static SimResponse success(AwsOperation op, String requestId, SdkPojo response) {
        AwsService s = op.service();
        return switch (s.protocol()) {
            case EC2_QUERY -> {
                StringBuilder sb = new StringBuilder(512).append(XML_DECL);
                sb.append('<').append(op.name()).append("Response xmlns=\"").append(s.xmlNamespace()).append("\">");
                sb.append("<requestId>").append(requestId).append("</requestId>");
                XmlWriter.writeMembers(sb, response);
                sb.append("</").append(op.name()).append("Response>");
                yield xml(200, requestId, sb);
            }
            case AWS_QUERY -> {
                StringBuilder sb = new StringBuilder(512).append(XML_DECL);
                sb.append('<').append(op.name()).append("Response xmlns=\"").append(s.xmlNamespace()).append("\">");
                sb.append('<').append(op.name()).append("Result>");
                XmlWriter.writeMembers(sb, response);
                sb.append("</").append(op.name()).append("Result>");
                sb.append("<ResponseMetadata><RequestId>").append(requestId).append("</RequestId></ResponseMetadata>");
                sb.append("</").append(op.name()).append("Response>");
                yield xml(200, requestId, sb);
            }
            case AWS_JSON_1_0, AWS_JSON_1_1 -> SimResponse.status(200).header("x-amzn-RequestId", requestId)
                .body(jsonType(s), JsonWriter.write(response)).build();
            case REST_JSON -> restJson(requestId, response);
            case REST_XML -> restXml(op, requestId, response);
        };
    }

    private static SimResponse restJson(String requestId, SdkPojo response) {
        SimResponse.Builder b = SimResponse.status(200).header("x-amzn-RequestId", requestId);
        byte[] body = null;
        for (SdkField<?> f : response.sdkFields()) {
            Object v = f.getValueOrDefault(response);
            if (f.location() == MarshallLocation.HEADER && v != null) {
                b.header(f.locationName(), XmlWriter.scalarText(f, v));
            } else if (f.location() == MarshallLocation.PAYLOAD && f.containsTrait(PayloadTrait.class)) {
                body = v == null ? new byte[0] : JsonWriter.writeValue(f, v);
            }
        }
        return b.body("application/json", body != null ? body : JsonWriter.write(response)).build();
    }

    private static SimResponse restXml(AwsOperation op, String requestId, SdkPojo response) {
        SimResponse.Builder b = SimResponse.status(200).header("x-amz-request-id", requestId)
            .header("x-amzn-RequestId", requestId);
        StringBuilder sb = new StringBuilder(512).append(XML_DECL);
        SdkField<?> explicit = null;
        for (SdkField<?> f : response.sdkFields()) {
            Object v = f.getValueOrDefault(response);
            if (f.location() == MarshallLocation.HEADER && v != null) {
                b.header(f.locationName(), XmlWriter.scalarText(f, v));
            } else if (f.location() == MarshallLocation.PAYLOAD && f.containsTrait(PayloadTrait.class)) {
                explicit = f;
            }
        }
        String ns = " xmlns=\"" + op.service().xmlNamespace() + "\"";
        if (explicit != null) {
            Object v = explicit.getValueOrDefault(response);
            String root = explicit.unmarshallLocationName();
            if (v instanceof SdkPojo pojo) {
                sb.append('<').append(root).append(ns).append('>');
                XmlWriter.writeMembers(sb, pojo);
                sb.append("</").append(root).append('>');
            } else {
                sb.append('<').append(root).append(ns).append('>');
                if (v != null) {
                    XmlWriter.text(sb, XmlWriter.scalarText(explicit, v));
                }
                sb.append("</").append(root).append('>');
            }
        } else {
            String root = op.xmlRoot() != null ? op.xmlRoot() : op.name() + "Response";
            sb.append('<').append(root).append(ns).append('>');
            XmlWriter.writeMembers(sb, response);
            sb.append("</").append(root).append('>');
        }
        return b.body("application/xml", sb.toString().getBytes(StandardCharsets.UTF_8)).build();
    }

    static SimResponse error(AwsService s, String requestId, AwsError e) {
        SimResponse.Builder b = SimResponse.status(e.status());
        if (e.retryAfterSeconds() > 0) {
            b.header("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        for (String[] h : e.headers()) {
            b.header(h[0], h[1]);
        }
        switch (s.protocol()) {
            case EC2_QUERY -> {
                StringBuilder sb = new StringBuilder(256).append(XML_DECL).append("<Response><Errors><Error><Code>");
                XmlWriter.text(sb, e.code());
                sb.append("</Code><Message>");
                XmlWriter.text(sb, e.getMessage());
                sb.append("</Message></Error></Errors><RequestID>").append(requestId).append("</RequestID></Response>");
                return b.body("text/xml;charset=UTF-8", sb.toString()).build();
            }
            case AWS_QUERY -> {
                return b.header("x-amzn-RequestId", requestId)
                    .body("text/xml", errorResponse(s.xmlNamespace(), requestId, e)).build();
            }
            case REST_XML -> {
                b.header("x-amz-request-id", requestId).header("x-amzn-RequestId", requestId);
                if (s == AwsService.S3) {
                    StringBuilder sb = new StringBuilder(256).append(XML_DECL).append("<Error><Code>");
                    XmlWriter.text(sb, e.code());
                    sb.append("</Code><Message>");
                    XmlWriter.text(sb, e.getMessage());
                    sb.append("</Message>");
                    for (String[] d : e.details()) {
                        XmlWriter.open(sb, d[0]);
                        XmlWriter.text(sb, d[1]);
                        XmlWriter.close(sb, d[0]);
                    }
                    sb.append("<RequestId>").append(requestId).append("</RequestId><HostId>cloud-sim</HostId></Error>");
                    return b.body("application/xml", sb.toString()).build();
                }
                return b.body("application/xml", errorResponse(s.xmlNamespace(), requestId, e)).build();
            }
            case REST_JSON -> {
                return b.header("x-amzn-RequestId", requestId).header("x-amzn-ErrorType", e.code() + ":")
                    .body("application/json", jsonError(e, "message")).build();
            }
            default -> {
                return b.header("x-amzn-RequestId", requestId).body(jsonType(s), jsonError(e, "message")).build();
            }
        }
    }

    /** An error for a request whose service could not be told; shaped by what the request looks like. */
    static SimResponse unknownService(boolean json, boolean query, String requestId, String what) {
        if (json) {
            AwsError e = AwsErrors.unknownJsonOperation(what);
            return SimResponse.status(e.status()).header("x-amzn-RequestId", requestId)
                .body("application/x-amz-json-1.1", jsonError(e, "message")).build();
        }
        AwsError e = AwsErrors.client(query ? "InvalidAction" : "UnknownOperationException",
            "cloud-sim does not serve " + what, query ? 400 : 404);
        if (query) {
            return SimResponse.status(e.status()).body("text/xml", errorResponse("https://cloudg.io/sim/", requestId, e))
                .build();
        }
        return SimResponse.status(e.status()).header("x-amzn-ErrorType", e.code() + ":")
            .body("application/json", jsonError(e, "message")).build();
    }

    private static String errorResponse(String ns, String requestId, AwsError e) {
        StringBuilder sb = new StringBuilder(256).append(XML_DECL).append("<ErrorResponse xmlns=\"").append(ns)
            .append("\"><Error><Type>").append(e.sender() ? "Sender" : "Receiver").append("</Type><Code>");
        XmlWriter.text(sb, e.code());
        sb.append("</Code><Message>");
        XmlWriter.text(sb, e.getMessage());
        sb.append("</Message></Error><RequestId>").append(requestId).append("</RequestId></ErrorResponse>");
        return sb.toString();
    }

    private static String jsonError(AwsError e, String messageKey) {
        return "{\"__type\":\"" + jsonEscape(e.code()) + "\",\"" + messageKey + "\":\"" + jsonEscape(e.getMessage()) + "\"}";
    }

    private static String jsonEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    private static String jsonType(AwsService s) {
        return s.protocol() == AwsProtocol.AWS_JSON_1_0 ? "application/x-amz-json-1.0" : "application/x-amz-json-1.1";
    }

    private static SimResponse xml(int status, String requestId, StringBuilder sb) {
        return SimResponse.status(status).header("x-amzn-RequestId", requestId)
            .body("text/xml;charset=UTF-8", sb.toString().getBytes(StandardCharsets.UTF_8)).build();
    }
}
