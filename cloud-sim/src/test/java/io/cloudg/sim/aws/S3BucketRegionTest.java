package io.cloudg.sim.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cloudg.sim.estate.Asset;
import io.cloudg.sim.CloudSim;
import io.cloudg.sim.SimOptions;
import io.cloudg.sim.config.EstateSpec;
import io.cloudg.sim.config.FaultSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Where a bucket is, as the real S3 client learns it without GetBucketLocation: ListBuckets names each bucket's
 * {@code BucketRegion} (as S3 has since 2024), and HeadBucket answers {@code x-amz-bucket-region} on a 200, a
 * 301 from another region and a 403 alike (a caller denied the bucket still learns its region).
 */
class S3BucketRegionTest {
    static CloudSim sim;
    static String management;
    static String member;

    @BeforeAll
    static void start() {
        sim = CloudSim.start(SimOptions.builder().seed(21).estate(EstateSpec.fromYaml("""
            aws:
              accounts: 2
              regions: [us-east-1, eu-west-1, ap-southeast-2]
              resources: {AWS::S3::Bucket: 3}   # bucket i in regions[i % 3]
            """)).build());
        management = sim.estate().aws().management().id();
        member = sim.estate().aws().accounts().get(1).id();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static S3Client s3(Region region, boolean crossRegion) {
        return AwsClients.aimNoRetry(S3Client.builder(), sim, region, AwsClients.management()).forcePathStyle(true)
            .crossRegionAccessEnabled(crossRegion).build();
    }

    static List<Asset> buckets(String account) {
        return sim.truth().select(a -> a.account().equals(account) && a.type().equals("AWS::S3::Bucket"));
    }

    @Test
    void listBucketsNamesEveryBucketsRegion() {
        Map<String, String> truth = buckets(management).stream().collect(Collectors.toMap(Asset::id, Asset::region));
        assertThat(truth.values()).as("buckets in several regions").contains("us-east-1", "eu-west-1", "ap-southeast-2");
        try (S3Client s3 = s3(Region.US_EAST_1, false)) {
            Map<String, String> listed = s3.listBucketsPaginator(b -> b.maxBuckets(2)).buckets().stream()
                .collect(Collectors.toMap(Bucket::name, Bucket::bucketRegion));
            assertThat(listed).isEqualTo(truth);
        }
    }

    @Test
    void headBucketNamesTheRegionOnSuccessRedirectAndDenial() {
        Asset far = buckets(management).stream().filter(a -> a.region().equals("eu-west-1")).findFirst().orElseThrow();
        Asset theirs = buckets(member).stream().filter(a -> a.region().equals("ap-southeast-2")).findFirst().orElseThrow();
        try (S3Client home = s3(Region.EU_WEST_1, false); S3Client away = s3(Region.US_EAST_1, false)) {
            HeadBucketResponse ok = home.headBucket(b -> b.bucket(far.id()));
            assertThat(ok.bucketRegion()).isEqualTo("eu-west-1");

            assertThatThrownBy(() -> away.headBucket(b -> b.bucket(far.id()))).isInstanceOfSatisfying(S3Exception.class, e -> {
                assertThat(e.statusCode()).isEqualTo(301);
                assertThat(region(e)).hasValue("eu-west-1");
            });
            try (S3Client there = s3(Region.AP_SOUTHEAST_2, false)) {
                assertThatThrownBy(() -> there.headBucket(b -> b.bucket(theirs.id()))).as("another account's bucket")
                    .isInstanceOfSatisfying(S3Exception.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(region(e)).hasValue("ap-southeast-2");
                    });
            }
            assertThatThrownBy(() -> home.headBucket(b -> b.bucket("no-such-bucket-anywhere")))
                .isInstanceOfSatisfying(NoSuchBucketException.class, e -> assertThat(region(e)).isEmpty());
        }
        try (S3Client cross = s3(Region.US_EAST_1, true)) {
            assertThat(cross.headBucket(b -> b.bucket(far.id())).bucketRegion()).as("cross-region access follows the 301")
                .isEqualTo("eu-west-1");
        }
    }

    @Test
    void aDeniedHeadBucketStillNamesTheRegion() {
        Asset far = buckets(management).stream().filter(a -> a.region().equals("ap-southeast-2")).findFirst().orElseThrow();
        sim.setFaults(FaultSpec.fromYaml("""
            faults: [{match: {provider: aws, service: s3, operation: HeadBucket}, error: access_denied, count: 1}]
            """));
        try (S3Client s3 = s3(Region.AP_SOUTHEAST_2, false)) {
            assertThatThrownBy(() -> s3.headBucket(b -> b.bucket(far.id()))).isInstanceOfSatisfying(S3Exception.class, e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(region(e)).hasValue("ap-southeast-2");
            });
            assertThat(s3.headBucket(b -> b.bucket(far.id())).bucketRegion()).isEqualTo("ap-southeast-2");
        } finally {
            sim.setFaults(FaultSpec.NONE);
        }
    }

    static java.util.Optional<String> region(S3Exception e) {
        return e.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-bucket-region");
    }
}
