package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.CloudSim;
import io.cloudg.sim.Http;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.SimStats;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import io.cloudg.sim.core.ManualClock;
import io.cloudg.sim.quota.BucketStats;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.organizations.OrganizationsClient;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sts.StsClient;

/** Throttling that the SDK itself classifies as throttling, bucket bounds seen through stats, error shapes. */
class AwsThrottlingAndErrorsTest {

    static EstateSpec tightEc2() {
        return EstateSpec.fromYaml("""
            aws: {accounts: 2, regions: [us-east-1]}
            quotas: {aws: {services: {ec2.DescribeVpcs: {rate: 2, burst: 5}}}}
            """);
    }

    @Test
    void anEmptyEc2BucketAnswersRequestLimitExceededWhichTheSdkCallsThrottling() {
        ManualClock clock = new ManualClock();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2()).clock(clock).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            int throttled = 0;
            int ok = 0;
            for (int i = 0; i < 40; i++) {
                try {
                    ec2.describeVpcs();
                    ok++;
                } catch (AwsServiceException e) {
                    assertThat(e.isThrottlingException()).isTrue();
                    assertThat(e.statusCode()).isEqualTo(503);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("RequestLimitExceeded");
                    throttled++;
                }
            }
            assertThat(ok).as("the burst, and no refill while the clock stands still").isEqualTo(5);
            clock.advance(java.time.Duration.ofSeconds(1));
            ec2.describeVpcs();
            ec2.describeVpcs();
            assertThatThrownBy(ec2::describeVpcs).isInstanceOfSatisfying(AwsServiceException.class,
                e -> assertThat(e.isThrottlingException()).isTrue());
            ok += 2;
            throttled++;
            SimStats stats = sim.stats();
            BucketStats b = stats.bucket("aws/" + sim.estate().aws().management().id() + "/us-east-1/ec2/DescribeVpcs");
            assertThat(b.calls()).isEqualTo(43);
            assertThat(b.throttled()).isEqualTo(throttled);
            assertThat(b.admitted()).isEqualTo(ok);
            assertThat((double) b.maxAdmittedPerSecond()).isLessThanOrEqualTo(b.rate() + b.burst());
            assertThat(b.rate()).isEqualTo(2.0);
            // other actions have their own buckets
            ec2.describeSubnets();
        }
    }

    @Test
    void unpaginatedResourceIntensiveEc2CallsDrawOnTheirOwnSmallerBucket() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2()).clock(new ManualClock()).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            String prefix = "aws/" + sim.estate().aws().management().id() + "/us-east-1/ec2/DescribeInstances";
            int ok = 0;
            for (int i = 0; i < 60; i++) {
                try {
                    ec2.describeInstances();
                    ok++;
                } catch (AwsServiceException e) {
                    assertThat(e.isThrottlingException()).isTrue();
                }
            }
            assertThat(ok).isEqualTo(50);
            // paginated calls still go through: they are charged to the action's normal bucket
            assertThat(ec2.describeInstances(b -> b.maxResults(5)).reservations()).isNotEmpty();
            BucketStats unpaginated = sim.stats().bucket(prefix + "/unpaginated");
            BucketStats paginated = sim.stats().bucket(prefix);
            assertThat(unpaginated.rate()).isEqualTo(10.0);
            assertThat(unpaginated.burst()).isEqualTo(50.0);
            assertThat(unpaginated.throttled()).isEqualTo(10);
            assertThat(paginated.calls()).isEqualTo(1);
            assertThat(paginated.burst()).isEqualTo(100.0);
        }
    }

    @Test
    void aNoisyNeighbourShowsInTheBucketStatistics() {
        EstateSpec spec = EstateSpec.fromYaml("""
            aws: {accounts: 1, regions: [us-east-1]}
            noisy_neighbours: [{match: {provider: aws, service: ec2, operation: DescribeVpcs}, share: 0.75}]
            """);
        ManualClock clock = new ManualClock();
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(spec).clock(clock).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            ec2.describeVpcs();
            ec2.describeSubnets();
            clock.advance(java.time.Duration.ofSeconds(10));
            String prefix = "aws/" + sim.estate().aws().management().id() + "/us-east-1/ec2/";
            BucketStats vpcs = sim.stats().bucket(prefix + "DescribeVpcs");
            assertThat(vpcs.neighbourShare()).isEqualTo(0.75);
            assertThat(vpcs.neighbourTokens()).isEqualTo(150.0);
            assertThat(sim.stats().bucket(prefix + "DescribeSubnets").neighbourShare()).isZero();
        }
    }

    @Test
    void slowFaultsAndLatencyDelayAnswersWithoutChangingThem() {
        EstateSpec spec = tightEc2().withLatency(new io.cloudg.sim.config.LatencySpec(java.time.Duration.ofMillis(1),
            java.time.Duration.ofMillis(2)));
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(spec)
            .faults(FaultSpec.fromYaml("faults: [{match: {operation: DescribeSubnets}, error: slow, delay: 50ms}]")).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            assertThat(ec2.describeSubnets().subnets()).hasSameSizeAs(
                sim.truth().ids("aws", sim.estate().aws().management().id(), "us-east-1", "AWS::EC2::Subnet"));
            assertThat(ec2.describeVpcs().vpcs()).isNotEmpty();
            assertThat(sim.stats().totals().faults()).isEqualTo(1);
            assertThat(sim.stats().totals().admitted()).isEqualTo(2);
        }
    }

    @Test
    void injectedThrottlesAreClassifiedAsThrottlingByEachProtocolsClient() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2())
            .faults(FaultSpec.fromYaml("faults: [{match: {provider: aws}, error: throttle}]")).build())) {
            try (Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
                assertThrottled(ec2::describeVpcs, "RequestLimitExceeded");
            }
            try (StsClient sts = AwsClients.aimNoRetry(StsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
                assertThrottled(sts::getCallerIdentity, "Throttling");
            }
            try (OrganizationsClient org = AwsClients.aimNoRetry(OrganizationsClient.builder(), sim, Region.AWS_GLOBAL,
                AwsClients.management()).build()) {
                assertThrottled(org::listAccounts, "TooManyRequestsException");
            }
            try (IamClient iam = AwsClients.aimNoRetry(IamClient.builder(), sim, Region.AWS_GLOBAL, AwsClients.management()).build()) {
                assertThrottled(iam::listRoles, "Throttling");
            }
            try (CloudControlClient cc = AwsClients.aimNoRetry(CloudControlClient.builder(), sim, Region.US_EAST_1,
                AwsClients.management()).build()) {
                assertThrottled(() -> cc.listResources(b -> b.typeName("AWS::EC2::VPC")), "ThrottlingException");
            }
            try (ResourceGroupsTaggingApiClient tag = AwsClients.aimNoRetry(ResourceGroupsTaggingApiClient.builder(), sim,
                Region.US_EAST_1, AwsClients.management()).build()) {
                assertThrottled(tag::getResources, "ThrottledException");
            }
            try (LambdaClient lambda = AwsClients.aimNoRetry(LambdaClient.builder(), sim, Region.US_EAST_1,
                AwsClients.management()).build()) {
                assertThrottled(lambda::listFunctions, "TooManyRequestsException");
            }
            try (S3Client s3 = AwsClients.aimNoRetry(S3Client.builder(), sim, Region.US_EAST_1, AwsClients.management())
                .forcePathStyle(true).build()) {
                assertThrottled(s3::listBuckets, "SlowDown");
            }
            try (Route53Client r53 = AwsClients.aimNoRetry(Route53Client.builder(), sim, Region.AWS_GLOBAL,
                AwsClients.management()).build()) {
                assertThrottled(r53::listHostedZones, "Throttling");
            }
            try (SqsClient sqs = AwsClients.aimNoRetry(SqsClient.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
                assertThrottled(sqs::listQueues, "RequestThrottled");
            }
            assertThat(sim.stats().totals().throttled()).isEqualTo(10);
        }
    }

    @Test
    void transientAndResetFaultsAreRetriedByTheSdkAndThenSucceed() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2()).faults(FaultSpec.fromYaml("""
                faults:
                  - {match: {operation: DescribeSubnets}, error: transient, count: 1}
                  - {match: {operation: DescribeRouteTables}, error: reset, count: 1}
                  - {match: {operation: DescribeKeyPairs}, error: access_denied}
                """)).build());
             Ec2Client ec2 = AwsClients.aim(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            assertThat(ec2.describeSubnets().subnets()).isNotEmpty();
            assertThat(ec2.describeRouteTables().routeTables()).isNotEmpty();
            assertThatThrownBy(ec2::describeKeyPairs).isInstanceOfSatisfying(AwsServiceException.class, e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnauthorizedOperation");
                assertThat(e.isThrottlingException()).isFalse();
            });
            assertThat(sim.stats().totals().faults()).isEqualTo(3);
            assertThat(sim.stats().totals().retries()).as("the SDK's retries of the transient and reset faults").isEqualTo(2);
        }
    }

    @Test
    void aResetWithoutRetriesSurfacesAsAClientError() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2())
            .faults(FaultSpec.fromYaml("faults: [{error: reset}]")).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            assertThatThrownBy(ec2::describeVpcs).isInstanceOf(SdkClientException.class);
        }
    }

    @Test
    void aCloseFaultEndsTheConnectionWithoutAByteOfAnAnswer() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2())
            .faults(FaultSpec.fromYaml("faults: [{error: close}]")).build());
             Ec2Client ec2 = AwsClients.aimNoRetry(Ec2Client.builder(), sim, Region.US_EAST_1, AwsClients.management()).build()) {
            assertThatThrownBy(ec2::describeVpcs).isInstanceOf(SdkClientException.class)
                .hasRootCauseInstanceOf(org.apache.http.NoHttpResponseException.class);
            assertThat(sim.stats().totals().faults()).isEqualTo(1);
        }
    }

    @Test
    void unknownActionsGetEachProtocolsOwnErrorShape() {
        try (CloudSim sim = CloudSim.start(SimOptions.builder().estate(tightEc2()).build())) {
            HttpResponse<String> ec2 = Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
                .header("Authorization", Http.sigv4("test", "us-east-1", "ec2"))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString("Action=LaunchRockets&Version=2016-11-15")));
            assertThat(ec2.statusCode()).isEqualTo(400);
            assertThat(ec2.body()).contains("<Response><Errors><Error><Code>InvalidAction</Code>");

            HttpResponse<String> iamUnsigned = Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("Action=DeleteEverything&Version=2010-05-08")));
            assertThat(iamUnsigned.statusCode()).isEqualTo(400);
            assertThat(iamUnsigned.body()).contains("<ErrorResponse").contains("<Type>Sender</Type>")
                .contains("<Code>InvalidAction</Code>");

            HttpResponse<String> org = Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
                .header("X-Amz-Target", "AWSOrganizationsV20161128.CloseEverything")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertThat(org.statusCode()).isEqualTo(400);
            assertThat(org.body()).contains("\"__type\":\"UnknownOperationException\"");

            HttpResponse<String> unknownService = Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
                .header("X-Amz-Target", "NoSuchService_2020.Do")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
            assertThat(unknownService.statusCode()).isEqualTo(400);
            assertThat(unknownService.body()).contains("UnknownOperationException");

            HttpResponse<String> badJson = Http.send(HttpRequest.newBuilder(sim.awsEndpoint())
                .header("X-Amz-Target", "AWSOrganizationsV20161128.ListAccounts")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(HttpRequest.BodyPublishers.ofString("{\"MaxResults\": \"many\"}")));
            assertThat(badJson.statusCode()).isEqualTo(400);
            assertThat(badJson.body()).contains("InvalidInputException").doesNotContain("Exception:").doesNotContain("at io.");
            HttpResponse<String> lambdaUnknown = Http.send(HttpRequest.newBuilder(sim.awsEndpoint().resolve("/2015-03-31/layers"))
                .header("Authorization", Http.sigv4("test", "us-east-1", "lambda")).GET());
            assertThat(lambdaUnknown.statusCode()).isEqualTo(404);
            assertThat(lambdaUnknown.headers().firstValue("x-amzn-ErrorType")).hasValue("UnknownOperationException:");

            HttpResponse<String> s3Unknown = Http.send(HttpRequest.newBuilder(sim.awsEndpoint().resolve("/some-bucket/key"))
                .header("Authorization", Http.sigv4("test", "us-east-1", "s3")).GET());
            assertThat(s3Unknown.statusCode()).isEqualTo(501);
            assertThat(s3Unknown.body()).contains("<Error><Code>NotImplemented</Code>");
            assertThat(sim.stats().totals().errors()).isEqualTo(6);
        }
    }

    private static void assertThrottled(Runnable call, String code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(AwsServiceException.class, e -> {
            assertThat(e.isThrottlingException()).as(code).isTrue();
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
        });
    }
}
