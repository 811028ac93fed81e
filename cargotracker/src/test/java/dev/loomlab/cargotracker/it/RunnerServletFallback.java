package dev.loomlab.cargotracker.it;

import java.io.IOException;
import java.io.InputStream;
import java.util.logging.Logger;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.arquillian.container.spi.event.container.AfterDeploy;
import org.jboss.arquillian.core.api.Instance;
import org.jboss.arquillian.core.api.annotation.Inject;
import org.jboss.arquillian.core.api.annotation.Observes;
import org.jboss.arquillian.core.spi.LoadableExtension;
import org.jboss.arquillian.protocol.servlet5.ServletMethodExecutor;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Registers Arquillian's runner servlet when the Payara Micro connector missed it.
 *
 * <p>arquillian-payara-micro-managed 3.1 snapshots the server's console every 200 ms and stops as soon as
 * the "Instance Configuration" block is complete; the "Deployed" list with the servlets is printed just
 * after it. A snapshot taken between the two yields an HTTP context without servlets, and every in-server
 * test then fails with "ArquillianServletRunnerEE9 not found". The WAR is deployed all the same, so the
 * runner servlet is where the deployment's context root says.
 */
public final class RunnerServletFallback implements LoadableExtension {

    private static final Logger LOG = Logger.getLogger(RunnerServletFallback.class.getName());

    @Override
    public void register(ExtensionBuilder builder) {
        builder.observer(AfterDeployObserver.class);
    }

    /** Runs inside the deployment's context, where the connector's answer is stored. */
    public static final class AfterDeployObserver {

        @Inject
        private Instance<ProtocolMetaData> metaData;

        public void completeContexts(@Observes AfterDeploy event) {
            ProtocolMetaData answer = metaData.get();
            if (answer == null || !event.getDeployment().isArchiveDeployment()) {
                return;
            }
            String contextRoot = contextRoot(event.getDeployment().getArchive());
            for (HTTPContext context : answer.getContexts(HTTPContext.class)) {
                if (addRunnerIfMissing(context, contextRoot)) {
                    LOG.warning("the connector registered no " + ServletMethodExecutor.ARQUILLIAN_SERVLET_NAME
                            + " (start-up race); using the context root " + contextRoot + " on " + context);
                }
            }
        }
    }

    /** Adds the runner servlet at {@code contextRoot}; false if the context already has it. */
    static boolean addRunnerIfMissing(HTTPContext context, String contextRoot) {
        if (context.getServletByName(ServletMethodExecutor.ARQUILLIAN_SERVLET_NAME) != null) {
            return false;
        }
        context.add(new Servlet(ServletMethodExecutor.ARQUILLIAN_SERVLET_NAME, contextRoot));
        return true;
    }

    /** The context root Payara gives a WAR: its glassfish-web.xml's, else the archive's base name. */
    static String contextRoot(Archive<?> war) {
        Node descriptor = war.get("WEB-INF/glassfish-web.xml");
        if (descriptor != null && descriptor.getAsset() != null) {
            try (InputStream xml = descriptor.getAsset().openStream()) {
                DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
                // The descriptor names a DTD on glassfish.org: never fetch it.
                factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
                NodeList roots = factory.newDocumentBuilder().parse(xml).getElementsByTagName("context-root");
                if (roots.getLength() > 0) {
                    return roots.item(0).getTextContent().trim();
                }
            } catch (IOException | ParserConfigurationException | SAXException e) {
                throw new IllegalStateException("unreadable WEB-INF/glassfish-web.xml in " + war.getName(), e);
            }
        }
        String name = war.getName();
        return "/" + (name.endsWith(".war") ? name.substring(0, name.length() - 4) : name);
    }
}
