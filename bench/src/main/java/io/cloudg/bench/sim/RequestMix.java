package io.cloudg.bench.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Pre-built HTTP/1.1 requests, byte for byte what the SDKs send (minus the signature value). */
final class RequestMix {
    private final String host;
    private final List<byte[]> requests = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();

    RequestMix(String host) {
        this.host = host;
    }

    List<byte[]> requests() {
        return requests;
    }

    List<String> labels() {
        return labels;
    }

    int size() {
        return requests.size();
    }

    /** Every AWS operation of the mix for one caller (access key) in one region. */
    void addAws(String accessKey, String region) {
        String ec2 = "Version=2016-11-15&Action=";
        form(accessKey, region, "ec2", ec2 + "DescribeVpcs&MaxResults=5", "ec2.DescribeVpcs");
        form(accessKey, region, "ec2", ec2 + "DescribeSubnets&MaxResults=5", "ec2.DescribeSubnets");
        form(accessKey, region, "ec2", ec2 + "DescribeInstances&MaxResults=5", "ec2.DescribeInstances");
        form(accessKey, region, "ec2", ec2 + "DescribeImages&Owner.1=self&MaxResults=5", "ec2.DescribeImages");
        form(accessKey, region, "ec2", ec2 + "DescribeSecurityGroups&MaxResults=5", "ec2.DescribeSecurityGroups");
        form(accessKey, region, "iam", "Action=ListRoles&Version=2010-05-08&MaxItems=10", "iam.ListRoles");
        form(accessKey, region, "rds", "Action=DescribeDBInstances&Version=2014-10-31", "rds.DescribeDBInstances");
        json(accessKey, region, "dynamodb", "DynamoDB_20120810.ListTables", "1.0", "{\"Limit\":10}", "dynamodb.ListTables");
        json(accessKey, region, "kms", "TrentService.ListKeys", "1.1", "{\"Limit\":10}", "kms.ListKeys");
        json(accessKey, region, "logs", "Logs_20140328.DescribeLogGroups", "1.1", "{\"limit\":10}", "logs.DescribeLogGroups");
        json(accessKey, region, "sqs", "AmazonSQS.ListQueues", "1.0", "{\"MaxResults\":10}", "sqs.ListQueues");
        json(accessKey, region, "cloudcontrolapi", "CloudApiService.ListResources", "1.0",
            "{\"TypeName\":\"AWS::EC2::Subnet\",\"MaxResults\":10}", "cloudcontrol.ListResources");
        json(accessKey, region, "tagging", "ResourceGroupsTaggingAPI_20170126.GetResources", "1.1",
            "{\"ResourcesPerPage\":20}", "tagging.GetResources");
        get(accessKey, region, "lambda", "/2015-03-31/functions?MaxItems=10", "lambda.ListFunctions");
        get(accessKey, region, "s3", "/?max-buckets=10", "s3.ListBuckets");
    }

    /** ARM resource listing of one subscription by one principal. */
    void addAzure(String subscription, String token) {
        add("GET /subscriptions/" + subscription + "/resources?api-version=2021-04-01 HTTP/1.1\r\n"
            + "Host: " + host + "\r\nAuthorization: Bearer " + token + "\r\nAccept: application/json\r\n\r\n", new byte[0],
            "azure.ListResources");
    }

    private void form(String key, String region, String service, String body, String label) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        add("POST / HTTP/1.1\r\nHost: " + host + "\r\n" + auth(key, region, service)
            + "Content-Type: application/x-www-form-urlencoded; charset=utf-8\r\nContent-Length: " + b.length + "\r\n\r\n",
            b, label);
    }

    private void json(String key, String region, String service, String target, String version, String body, String label) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        add("POST / HTTP/1.1\r\nHost: " + host + "\r\n" + auth(key, region, service) + "X-Amz-Target: " + target
            + "\r\nContent-Type: application/x-amz-json-" + version + "\r\nContent-Length: " + b.length + "\r\n\r\n", b, label);
    }

    private void get(String key, String region, String service, String pathAndQuery, String label) {
        add("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + "\r\n" + auth(key, region, service) + "\r\n",
            new byte[0], label);
    }

    private static String auth(String key, String region, String service) {
        return "Authorization: AWS4-HMAC-SHA256 Credential=" + key + "/20250101/" + region + "/" + service
            + "/aws4_request, SignedHeaders=host;x-amz-date, Signature=0000\r\nX-Amz-Date: 20250101T000000Z\r\n"
            + "amz-sdk-request: attempt=1; max=1\r\n";
    }

    private void add(String head, byte[] body, String label) {
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        requests.add(all);
        labels.add(label);
    }
}
