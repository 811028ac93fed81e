package dev.loomlab.virtualpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpRefusalTest {

    @Test
    void answersAnHttpRequestWith503AndConnectionClose() throws Exception {
        String answer = exchange("GET /api/sleep?ms=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), true);
        assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
        assertTrue(answer.contains("\r\nConnection: close\r\n"), answer);
        String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
        assertTrue(body.startsWith("{\"error\":\"server busy"), body);
        assertTrue(answer.contains("Content-Length: " + body.length() + "\r\n"), answer);
    }

    @Test
    void leavesOtherProtocolsToGrizzlysClose() throws Exception {
        byte[] tlsHello = {0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00};
        assertEquals("", exchange(tlsHello, false));
        assertEquals("", exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), false));
    }

    @Test
    void recognisesOnlyACompleteHttp1RequestLine() {
        assertTrue(HttpRefusal.startsWithHttp1RequestLine(ascii("POST /x HTTP/1.0\r\n")));
        assertFalse(HttpRefusal.startsWithHttp1RequestLine(ascii("GET /x HTTP/1.1")), "line not complete");
        assertFalse(HttpRefusal.startsWithHttp1RequestLine(ascii("name=value&other=1\r\n")), "a request body");
        assertFalse(HttpRefusal.startsWithHttp1RequestLine(ascii("")));
    }

    private static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Sends {@code request}, lets the refusal answer on the server side, closes it, returns what came back. */
    private static String exchange(byte[] request, boolean expectAnswer) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open();
             Selector selector = Selector.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), server.socket().getLocalPort())) {
                client.setSoTimeout(10_000);
                try (SocketChannel accepted = server.accept()) {
                    client.getOutputStream().write(request);
                    client.getOutputStream().flush();
                    accepted.configureBlocking(false);
                    accepted.register(selector, SelectionKey.OP_READ);
                    assertEquals(1, selector.select(10_000), "the request arrived");
                    assertEquals(expectAnswer, HttpRefusal.answer(accepted));
                }
                return readAll(client.getInputStream());
            }
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }
}
