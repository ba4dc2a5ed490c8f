package io.cloudg.fleet.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cloudg.fleet.protocol.AssetChunk;
import io.cloudg.fleet.protocol.MessageCodec;
import io.cloudg.fleet.protocol.ResultMessage;
import io.cloudg.fleet.protocol.TaskDone;
import io.cloudg.fleet.protocol.TaskMessage;
import io.cloudg.fleet.protocol.WireTarget;
import io.cloudg.fleet.protocol.WireThrottling;
import io.cloudg.inventory.Asset;
import io.cloudg.inventory.ServiceCoverage;
import io.cloudg.resilience.report.ThrottlingStats;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** How an execution's assets are cut into chunks: by count, and by their JSON's UTF-8 bytes. */
class ResultEmitterTest {
    final MessageCodec codec = new MessageCodec();
    final MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    final TaskMessage task = TaskMessage.first("run-1", "aws/111111111111/us-east-1#0",
            new WireTarget("aws", "111111111111", "us-east-1", List.of("vpc"), Map.of()), 60_000, 1);

    static Asset asset(int i, String name) {
        return new Asset("aws", "111111111111", "us-east-1", "ec2", "AWS::EC2::VPC", "vpc-" + i, name,
                "arn:aws:ec2:us-east-1:111111111111:vpc/vpc-" + i, Map.of(), Map.of("cidr", "10.0.0.0/16"));
    }

    static int jsonBytes(Asset a) throws Exception {
        return new ObjectMapper().writerFor(Asset.class).writeValueAsString(a).getBytes(StandardCharsets.UTF_8).length;
    }

    List<ResultMessage> sent() {
        List<ResultMessage> out = new ArrayList<>();
        for (ProducerRecord<String, byte[]> r : producer.history()) {
            out.add(codec.result(r.value()));
        }
        return out;
    }

    @Test
    void chunksHoldAtMostTheConfiguredBytesOfAssetJsonCountingMultiByteCharacters() throws Exception {
        // names of 2-byte and 3-byte characters: a count of chars instead of UTF-8 bytes would overfill chunks
        List<Asset> assets = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            assets.add(asset(i, "é€".repeat(10 + i)));
        }
        int limit = jsonBytes(assets.get(39)) * 3;
        ResultEmitter emitter = new ResultEmitter(producer, "results", codec, task, "e1", "w1", 1_000, limit);
        assets.forEach(emitter::accept);
        emitter.done(List.of(ServiceCoverage.success("vpc", 1)), WireThrottling.of(new ThrottlingStats()), 0, 1).get();

        List<Asset> received = new ArrayList<>();
        int chunks = 0;
        for (ResultMessage m : sent()) {
            if (m instanceof AssetChunk c) {
                int bytes = 0;
                for (Asset a : c.assets()) {
                    bytes += jsonBytes(a);
                }
                assertThat(bytes).as("chunk %d's asset bytes", c.seq()).isLessThanOrEqualTo(limit);
                assertThat(c.seq()).isEqualTo(chunks++);
                received.addAll(c.assets());
            }
        }
        assertThat(received).as("every asset once, in order").isEqualTo(assets);
        assertThat(chunks).as("cut by bytes, not in one").isGreaterThan(10);
        assertThat(sent().get(sent().size() - 1)).isInstanceOfSatisfying(TaskDone.class,
                d -> assertThat(d.assetCount()).isEqualTo(40));
    }

    @Test
    void chunksHoldAtMostTheConfiguredNumberOfAssetsAndAnAssetLargerThanTheLimitTravelsAlone() throws Exception {
        ResultEmitter emitter = new ResultEmitter(producer, "results", codec, task, "e1", "w1", 3, 10_000);
        emitter.accept(asset(1, "x".repeat(20_000)));
        for (int i = 2; i <= 8; i++) {
            emitter.accept(asset(i, "a"));
        }
        emitter.done(List.of(ServiceCoverage.success("vpc", 1)), WireThrottling.of(new ThrottlingStats()), 0, 1).get();
        List<Integer> sizes = new ArrayList<>();
        for (ResultMessage m : sent()) {
            if (m instanceof AssetChunk c) {
                sizes.add(c.assets().size());
            }
        }
        assertThat(sizes).containsExactly(1, 3, 3, 1);
    }
}
