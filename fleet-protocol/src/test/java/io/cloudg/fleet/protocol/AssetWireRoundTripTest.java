package io.cloudg.fleet.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudg.inventory.Asset;
import io.cloudg.inventory.AssetSpool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An asset crosses the fleet's wire exactly: what a worker sends is what the coordinator reads, and what
 * the coordinator reads is what an embedded run reads back from its own spool, so a distributed map and an
 * embedded map of the same estate are the same file. Random assets (seeded; the seed is in each failure)
 * carry nulls at every depth: a map value, a list element, a map inside a list inside a map.
 */
class AssetWireRoundTripTest {
    private static final int CASES = 400;

    final MessageCodec codec = new MessageCodec();

    @Test
    void aSecurityGroupRuleWithoutPortsKeepsItsNullPorts() {
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("protocol", "-1");
        rule.put("from_port", null);
        rule.put("to_port", null);
        rule.put("cidrs", List.of("0.0.0.0/0"));
        Asset sg = new Asset("aws", "111111111111", "us-east-1", "ec2", "AWS::EC2::SecurityGroup", "sg-1", "default",
                null, Map.of(), Map.of("ingress", List.of(rule)));
        AssetChunk chunk = new AssetChunk(1, "r", "t#0", "e1", 0, List.of(sg));

        byte[] bytes = codec.encode(chunk);

        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"from_port\":null", "\"to_port\":null");
        Asset back = ((AssetChunk) codec.result(bytes)).assets().get(0);
        assertThat(back).isEqualTo(sg);
        @SuppressWarnings("unchecked")
        Map<String, Object> backRule = ((List<Map<String, Object>>) back.attributes().get("ingress")).get(0);
        assertThat(backRule).containsEntry("from_port", null).containsEntry("to_port", null);
    }

    @Test
    void randomAssetsRoundTripExactlyAndAsTheSpoolReadsThem(@TempDir Path dir) {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        List<Asset> assets = new ArrayList<>();
        for (int i = 0; i < CASES; i++) {
            assets.add(asset(random, i));
        }
        List<Asset> spooled;
        try (AssetSpool spool = new AssetSpool(dir.resolve("spool.jsonl"))) {
            assets.forEach(spool::accept);
            try (Stream<Asset> read = spool.stream()) {
                spooled = read.toList();
            }
        }
        for (int i = 0; i < CASES; i++) {
            Asset asset = assets.get(i);
            AssetChunk chunk = new AssetChunk(1, "r", "t#0", "e1", i, List.of(asset));
            AssetChunk back = (AssetChunk) codec.result(codec.encode(chunk));
            assertThat(back).as("seed %d, case %d: %s", seed, i, asset).isEqualTo(chunk);
            assertThat(back.assets().get(0)).as("seed %d, case %d: as an embedded run reads it back", seed, i)
                    .isEqualTo(spooled.get(i));
        }
    }

    private static Asset asset(Random random, int i) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (int t = random.nextInt(4); t > 0; t--) {
            tags.put(text(random), random.nextInt(6) == 0 ? null : text(random));
        }
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (int a = random.nextInt(6); a > 0; a--) {
            attributes.put(text(random), value(random, 0));
        }
        return new Asset(pick(random, "aws", "azure", "gcp"), random.nextBoolean() ? "111111111111" : null,
                random.nextBoolean() ? "us-east-1" : null, random.nextBoolean() ? "ec2" : null, "T::" + i, "id-" + i,
                random.nextBoolean() ? text(random) : null, random.nextBoolean() ? "arn:" + i : null, tags, attributes);
    }

    /** A JSON value in the Java type Jackson reads it back as, with a null about one time in five. */
    private static Object value(Random random, int depth) {
        int kind = random.nextInt(depth >= 4 ? 6 : 8);
        return switch (kind) {
            case 0 -> null;
            case 1 -> text(random);
            case 2 -> random.nextInt();
            case 3 -> random.nextBoolean() ? (long) Integer.MAX_VALUE + 1 + random.nextInt(1000) : Long.MIN_VALUE;
            case 4 -> random.nextBoolean() ? random.nextDouble() * 1e6 : -0.5;
            case 5 -> random.nextBoolean();
            case 6 -> {
                List<Object> list = new ArrayList<>();
                for (int n = random.nextInt(4); n > 0; n--) {
                    list.add(value(random, depth + 1));
                }
                yield list;
            }
            default -> {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int n = random.nextInt(4); n > 0; n--) {
                    map.put(text(random), value(random, depth + 1));
                }
                yield map;
            }
        };
    }

    private static String text(Random random) {
        String[] words = {"from_port", "to_port", "cidrs", "", "naïve", "日本", "quote\"d", "line\nbreak", "x"};
        return words[random.nextInt(words.length)] + random.nextInt(50);
    }

    private static String pick(Random random, String... options) {
        return options[random.nextInt(options.length)];
    }
}
