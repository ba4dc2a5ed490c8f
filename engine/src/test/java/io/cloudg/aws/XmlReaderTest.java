package io.cloudg.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.stream.XMLInputFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.query.unmarshall.XmlDomParser;
import software.amazon.awssdk.protocols.query.unmarshall.XmlElement;

/**
 * The SDK parses XML answers with the StAX reader {@link XMLInputFactory#newInstance()} finds; the worker ships
 * Woodstox for it (its readers are cheap to create). These pin that it is found, that the SDK's parser reads the
 * text it splits at entities whole, and that it still refuses what the SDK turns off (DTDs, external entities).
 */
class XmlReaderTest {
    @Test
    void theSdkFindsWoodstox() {
        assertThat(XMLInputFactory.newInstance().getClass().getName()).startsWith("com.ctc.wstx.");
    }

    @Test
    void textSplitAtEntitiesIsReadWhole() {
        XmlElement e = parse("<DescribeVpcsResponse><vpcId>vpc-1&amp;2&#x41;&lt;3</vpcId></DescribeVpcsResponse>");
        assertThat(e.getElementByName("vpcId").textContent()).isEqualTo("vpc-1&2A<3");
    }

    @Test
    void anExternalEntityIsNeverRead(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "do-not-read");
        String xml = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>"
                + "<r><v>&x;</v></r>";
        Throwable refused = catchThrowable(() -> {
            XmlElement e = parse(xml);
            assertThat(e.getElementByName("v").textContent()).doesNotContain("do-not-read");
        });
        if (refused != null) {
            assertThat(refused).hasMessageNotContaining("do-not-read").isNotInstanceOf(AssertionError.class);
        }
    }

    private static XmlElement parse(String xml) {
        return XmlDomParser.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
