package io.cloudg.sim.aws;

import io.cloudg.sim.http.SimRequest;

/**
 * What a SigV4 signature says about a request: {@code Credential=AKID/DATE/REGION/SERVICE/aws4_request}
 * in the {@code Authorization} header (or {@code X-Amz-Credential} for presigned URLs). The signature
 * itself is not verified: the simulator trusts the key id, which is how it tells accounts apart.
 */
public record SigV4(String accessKeyId, String region, String service) {

    /** Parses the request's credential scope; null when the request is unsigned or malformed. */
    public static SigV4 of(SimRequest req) {
        String auth = req.header("Authorization");
        String cred = null;
        if (auth != null && auth.startsWith("AWS4-")) {
            int i = auth.indexOf("Credential=");
            if (i >= 0) {
                int end = auth.indexOf(',', i);
                cred = auth.substring(i + "Credential=".length(), end < 0 ? auth.length() : end).trim();
            }
        } else {
            cred = req.queryParam("X-Amz-Credential");
        }
        if (cred == null) {
            return null;
        }
        String[] p = cred.split("/");
        if (p.length != 5 || !"aws4_request".equals(p[4])) {
            return null;
        }
        return new SigV4(p[0], p[2], p[3]);
    }
}
