package dev.loomlab.cargotracker.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.arquillian.protocol.servlet5.ServletMethodExecutor;
import org.jboss.arquillian.protocol.servlet5.ServletProtocolConfiguration;
import org.jboss.arquillian.protocol.servlet5.ServletUtil;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/** The fallback for the connector's start-up race: what Arquillian's servlet protocol sees before and after. */
class RunnerServletFallbackTest {

    private static final String RUNNER = ServletMethodExecutor.ARQUILLIAN_SERVLET_NAME;

    @Test
    void aContextWithoutServletsGetsTheRunnerAtTheWarsContextRoot() {
        // What the connector returns when its console snapshot stopped before the "Deployed" list.
        HTTPContext raced = new HTTPContext("localhost", 18410);
        ServletProtocolConfiguration protocol = new ServletProtocolConfiguration();
        assertThrows(IllegalArgumentException.class, () -> ServletUtil.determineBaseURI(protocol, raced, RUNNER));

        WebArchive war = ShrinkWrap.create(WebArchive.class, "cargotracker.war")
                .addAsWebInfResource(new File("src/main/webapp/WEB-INF/glassfish-web.xml"), "glassfish-web.xml");
        assertTrue(RunnerServletFallback.addRunnerIfMissing(raced, RunnerServletFallback.contextRoot(war)));

        // Where the runner is when the connector read Payara's "Deployed" list (context root "/").
        HTTPContext complete = new HTTPContext("localhost", 18410).add(new Servlet(RUNNER, "/"));
        URI expected = ServletUtil.determineBaseURI(protocol, complete, RUNNER);
        assertEquals(URI.create("http://localhost:18410"), expected);
        assertEquals(expected, ServletUtil.determineBaseURI(protocol, raced, RUNNER));
    }

    @Test
    void aContextThatHasTheRunnerIsLeftAsTheConnectorMadeIt() {
        HTTPContext complete = new HTTPContext("localhost", 18411).add(new Servlet(RUNNER, "/shop"));

        assertFalse(RunnerServletFallback.addRunnerIfMissing(complete, "/"));

        assertEquals(1, complete.getServlets().size());
        assertEquals("/shop", complete.getServletByName(RUNNER).getContextRoot());
    }

    @Test
    void withoutADescriptorTheContextRootIsTheArchivesBaseName() {
        assertEquals("/shop", RunnerServletFallback.contextRoot(ShrinkWrap.create(WebArchive.class, "shop.war")));
        WebArchive rooted = ShrinkWrap.create(WebArchive.class, "shop.war").addAsWebInfResource(
                new StringAsset("<glassfish-web-app><context-root>/store</context-root></glassfish-web-app>"),
                "glassfish-web.xml");
        assertEquals("/store", RunnerServletFallback.contextRoot(rooted));
    }
}
