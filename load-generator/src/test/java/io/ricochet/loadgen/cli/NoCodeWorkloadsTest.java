package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.ricochet.echo.ReverseEchoHandler;
import io.ricochet.transport.server.RicochetServer;
import io.ricochet.transport.session.FrameHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Framed load with no code, as tcpkali's: each placeholder of --payload and each --expect mode, against a server that
 * answers as expected (every reply ok, exit 0) and one that does not (every reply bad with its reason, exit 1).
 */
@Timeout(120)
class NoCodeWorkloadsTest {
    /** Servers that answer each frame their own way. */
    enum Answers { REVERSED, SAME, VALUE_OF }

    private static final Map<Answers, RicochetServer> SERVERS = new EnumMap<>(Answers.class);
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        SERVERS.put(Answers.REVERSED, FaultyServers.start(new ReverseEchoHandler()));
        SERVERS.put(Answers.SAME, FaultyServers.start((session, body) -> session.send(body)));
        SERVERS.put(Answers.VALUE_OF, FaultyServers.start(valueOf()));
    }

    @AfterAll
    static void stop() {
        SERVERS.values().forEach(RicochetServer::close);
    }

    /** Answers {@code get KEY} with {@code value KEY}, and anything else with {@code value } before it. */
    private static FrameHandler valueOf() {
        return (session, body) -> {
            String text = body.toString(StandardCharsets.UTF_8);
            body.release();
            ByteBuf reply = Unpooled.copiedBuffer("value " + (text.startsWith("get ") ? text.substring(4) : text),
                    StandardCharsets.UTF_8);
            session.send(reply);
        };
    }

    static Stream<Arguments> modes() {
        return Stream.of(
                arguments("{{seq}} in equals", "get {{seq}}", "equals:value {{seq}}", Answers.VALUE_OF, Answers.REVERSED,
                        "expected \"value 0\" (7 bytes), got \"0 teg\" (5 bytes)"),
                arguments("{{conn}}", "c{{conn}}", "equals:{{conn}}c", Answers.REVERSED, Answers.SAME,
                        "expected \"0c\" (2 bytes), got \"c0\" (2 bytes)"),
                arguments("{{worker}}, echo", "w{{worker}}", "echo", Answers.SAME, Answers.REVERSED,
                        "not the request echoed: expected \"w0\" (2 bytes), got \"0w\" (2 bytes)"),
                arguments("{{rand:N}}", "{{rand:8}}", "equals:{{rand:8}}", Answers.SAME, Answers.VALUE_OF,
                        "(16 bytes), got \"value "),
                arguments("{{time_us}}, regex", "t{{time_us}}", "regex:^t[0-9]{16}$", Answers.SAME, Answers.REVERSED,
                        "does not match regex ^t[0-9]{16}$"),
                arguments("reversed, the default", "abc", null, Answers.REVERSED, Answers.SAME,
                        "not the request reversed: expected \"cba\" (3 bytes), got \"abc\" (3 bytes)"),
                arguments("length:N", "abcd", "length:4", Answers.SAME, Answers.VALUE_OF, "10 bytes (expected: 4)"),
                arguments("a regex with a placeholder", "get {{seq}}", "regex:^value {{seq}}$", Answers.VALUE_OF,
                        Answers.SAME, "\"get 0\" does not match regex ^value 0$"));
    }

    private static Cli.Result run(Answers server, String payload, String expect) {
        List<String> args = new ArrayList<>(List.of("echo", "--target", FaultyServers.target(SERVERS.get(server)),
                "--connections", "2", "--pipeline", "4", "--duration", "500ms", "--json", "--payload", payload));
        if (expect != null) {
            args.addAll(List.of("--expect", expect));
        }
        return Cli.run(args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void everyReplyIsCheckedAsTheModeSays(String name, String payload, String expect, Answers right, Answers wrong,
            String reason) {
        Cli.Result ok = run(right, payload, expect);
        assertEquals(0, ok.exit(), ok.err());
        JsonNode good = ok.json();
        assertTrue(good.get("ok").asLong() > 0, ok.out());
        assertEquals(0, good.get("bad").asLong(), ok.out());
        assertEquals(0, good.get("errors").asLong(), ok.out());

        Cli.Result bad = run(wrong, payload, expect);
        assertEquals(1, bad.exit(), bad.err());
        JsonNode refused = bad.json();
        assertEquals(0, refused.get("ok").asLong(), bad.out());
        assertEquals(refused.get("requests").asLong(), refused.get("bad").asLong(), "every reply bad: " + bad.out());
        String firstBad = refused.get("first_bad").asText();
        assertTrue(firstBad.startsWith("connection "), firstBad);
        assertTrue(firstBad.contains(reason), firstBad + " (expected it to contain: " + reason + ")");
    }

    @Test
    void equalsReadsItsFileWithPlaceholders() throws Exception {
        Path expected = Files.writeString(dir.resolve("expected.txt"), "value {{seq}}");
        Cli.Result r = run(Answers.VALUE_OF, "get {{seq}}", "equals:@" + expected);
        assertEquals(0, r.exit(), r.err());
        assertEquals(0, r.json().get("bad").asLong());
    }

    @Test
    void anyTakesEveryWellFormedReplyButNotNone() {
        Cli.Result r = run(Answers.VALUE_OF, "hex:00ff10", "any");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.json().get("ok").asLong() > 0);
        try (RicochetServer silent = FaultyServers.start(FaultyServers.silent())) {
            Cli.Result none = Cli.run("echo", "--target", FaultyServers.target(silent), "--payload", "x", "--expect",
                    "any", "--timeout", "300ms", "--duration", "30s", "--json");
            assertEquals(1, none.exit(), none.err());
            assertTrue(none.json().get("first_error").asText().startsWith("no reply within --timeout 300ms (no reply yet"),
                    none.out());
        }
    }

    /** The same no-code workload over every transport: a datagram each way over UDP, a stream per connection over QUIC. */
    @ParameterizedTest
    @MethodSource("transports")
    void aTemplatedPayloadRunsOverEveryTransport(String transport) {
        Cli.Result r = Cli.run("echo", "--transport", transport, "--payload", "c{{conn}} s{{seq}} {{rand:4}}",
                "--connections", "2", "--duration", "500ms", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.json().get("ok").asLong() > 0, r.out());
        assertEquals(0, r.json().get("bad").asLong(), r.out());
    }

    static Stream<String> transports() {
        return Stream.of("tcp", "udp", "quic");
    }
}
