package dev.loomlab.app.fanout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The size of the HTTP worker pool this server was configured with, read from its own
 * {@code domain.xml} ({@code server-config}'s {@code http-thread-pool}, which every mode's pre-boot
 * file sets), so the fan-out pool of a platform mode can never disagree with its HTTP pool.
 */
final class HttpPoolSize {

    private static final String INSTANCE_ROOT = "com.sun.aas.instanceRoot";

    private HttpPoolSize() {
    }

    /** Empty when the server has no readable domain.xml (not a Payara server, or a broken file). */
    static OptionalInt configured() {
        String root = System.getProperty(INSTANCE_ROOT);
        if (root == null) {
            return OptionalInt.empty();
        }
        Path domainXml = Path.of(root, "config", "domain.xml");
        if (!Files.isReadable(domainXml)) {
            return OptionalInt.empty();
        }
        try {
            return fromDomainXml(domainXml);
        } catch (IOException | SAXException | ParserConfigurationException | NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    static OptionalInt fromDomainXml(Path domainXml) throws IOException, SAXException, ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        NodeList configs = factory.newDocumentBuilder().parse(domainXml.toFile()).getElementsByTagName("config");
        for (int i = 0; i < configs.getLength(); i++) {
            Element config = (Element) configs.item(i);
            if (!"server-config".equals(config.getAttribute("name"))) {
                continue;
            }
            NodeList pools = config.getElementsByTagName("thread-pool");
            for (int j = 0; j < pools.getLength(); j++) {
                Element pool = (Element) pools.item(j);
                String size = pool.getAttribute("max-thread-pool-size");
                if ("http-thread-pool".equals(pool.getAttribute("name")) && !size.isBlank()) {
                    return OptionalInt.of(Integer.parseInt(size.trim()));
                }
            }
        }
        return OptionalInt.empty();
    }
}
