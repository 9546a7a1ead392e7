package io.ricochet.examples.kv;

import static io.ricochet.examples.kv.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The text protocol over a real loopback connection to a {@link KvServer} on ephemeral ports. */
@Timeout(30)
class KvTextHandlerTest {
    private static final String KEY_64 = "k".repeat(64);

    private KvServer server;
    private TextClient client;

    @BeforeEach
    void start() {
        server = KvServer.start(new KvServerConfig("127.0.0.1", 0, 0, 3));
        client = new TextClient(server.tcpAddress());
    }

    @AfterEach
    void stop() {
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    @Test
    void aValuePutIsReadBackAndAPutReplacesIt() {
        assertEquals("ok", client.call("put user:42 ada"));
        assertEquals("value ada", client.call("get user:42"));
        assertEquals("ok", client.call("put user:42 grace"));
        assertEquals("value grace", client.call("get user:42"));
    }

    @Test
    void aKeyNeverPutIsMissing() {
        assertEquals("missing", client.call("get never.put"));
    }

    @Test
    void aValueIsEveryByteAfterTheKeyEvenSpacesAndNone() {
        byte[] put = concat("put k ".getBytes(StandardCharsets.US_ASCII), new byte[] {' ', 'a', ' ', 0, (byte) 0xff});
        assertEquals("ok", await(client.send(put)));
        assertEquals("value  a \u0000\u00ff", client.call("get k"));
        assertEquals("ok", client.call("put empty "));
        assertEquals("value ", client.call("get empty"));
    }

    @Test
    void keysAndValuesAtTheirBoundsAreServed() {
        String value = "v".repeat(KvStore.MAX_VALUE_BYTES);
        assertEquals("ok", client.call("put " + KEY_64 + " " + value));
        assertEquals("value " + value, client.call("get " + KEY_64));
        assertEquals("ok", client.call("put azAZ09._:- x"));
        assertEquals("value x", client.call("get azAZ09._:-"));
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" -> \"{1}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "hello                 | error unknown command",
        "GET k                 | error unknown command",
        "puts k v              | error unknown command",
        "' get k'              | error unknown command",
        "get                   | error bad key",
        "'get '                | error bad key",
        "get a b               | error bad key",
        "get a/b               | error bad key",
        "put                   | error bad key",
        "'put  v'              | error bad key",
        "put a/b v             | error bad key",
        "put k                 | error missing value",
    })
    void aMalformedRequestIsAnsweredWithItsReasonAndTheConnectionStays(String request, String reply) {
        assertEquals(reply, client.call(request));
        assertEquals("missing", client.call("get still.served"));
    }

    @Test
    void aKeyOverItsBoundIsABadKey() {
        String key65 = KEY_64 + "k";
        assertEquals("error bad key", client.call("put " + key65 + " v"));
        assertEquals("error bad key", client.call("get " + key65));
        assertEquals(0, server.store().size());
    }

    @Test
    void aValueOverItsBoundIsRefusedAndNotStored() {
        assertEquals("error value too long", client.call("put k " + "v".repeat(KvStore.MAX_VALUE_BYTES + 1)));
        assertEquals("missing", client.call("get k"));
    }

    @Test
    void aNonAsciiRequestIsAnUnknownCommand() {
        assertEquals("error unknown command", await(client.send(new byte[] {(byte) 0xff, 0, ' ', 'k'})));
    }

    @Test
    void aFullStoreRefusesNewKeysButStillReplacesAndServesItsOwn() {
        assertEquals("ok", client.call("put a 1"));
        assertEquals("ok", client.call("put b 2"));
        assertEquals("ok", client.call("put c 3"));
        assertEquals("error full", client.call("put d 4"));
        assertEquals("missing", client.call("get d"));
        assertEquals("ok", client.call("put a 10"));
        assertEquals("value 10", client.call("get a"));
        assertEquals(3, server.store().size());
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() {
        List<CompletableFuture<String>> replies = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String request = i % 2 == 0 ? "put k " + i : "get k";
            replies.add(client.send(request.getBytes(StandardCharsets.US_ASCII)));
        }
        for (int i = 0; i < replies.size(); i++) {
            assertEquals(i % 2 == 0 ? "ok" : "value " + (i - 1), await(replies.get(i)), "reply " + i);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
