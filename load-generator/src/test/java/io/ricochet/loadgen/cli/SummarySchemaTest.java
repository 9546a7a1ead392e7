package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every load command's JSON summary is of one schema (issue 46): {@code schema_version}, and the same key for the same
 * figure, whichever command made it. Each command runs briefly against its embedded server, and both its
 * {@code --json} and its report's {@code summary.json} are checked. {@link Cli.Result#json()} checks every other test's
 * summaries too, and the controller's ({@code KubernetesControllerTest}, {@code LocalControllerIT}).
 */
@Timeout(120)
class SummarySchemaTest {
    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of("echo", List.of("echo", "--duration", "500ms", "--connections", "2")),
                Arguments.of("rr", List.of("rr", "--duration", "500ms")),
                Arguments.of("crr", List.of("crr", "--duration", "500ms", "--concurrency", "2")),
                Arguments.of("massive", List.of("massive", "--connections", "20", "--connect-rate", "1000",
                        "--per-connection-rate", "10", "--duration", "500ms")),
                Arguments.of("rpc", List.of("rpc", "--clients", "2", "--requests", "200")),
                Arguments.of("register", List.of("register", "--pairs", "2", "--cycles", "20")),
                Arguments.of("udp-stream", List.of("udp-stream", "--duration", "500ms", "--size", "100", "--rate",
                        "2000")),
                Arguments.of("udp-stream --search", List.of("udp-stream", "--search", "--max-loss", "100%",
                        "--duration", "300ms", "--linger", "100ms", "--size", "100")),
                Arguments.of("sweep", List.of("sweep", "--max-size", "256", "--requests-per-step", "20", "--counts",
                        "10..20")),
                Arguments.of("ramp", List.of("ramp", "--duration", "300ms", "--warmup-step", "300ms", "--start-rate",
                        "500", "--max-rate", "500", "--slo", "1s", "--refine", "0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void everyCommandsSummaryIsOfTheOneSchema(String name, List<String> args, @TempDir Path dir) throws Exception {
        String[] withJson = Stream.concat(args.stream(), Stream.of("--json", "--report", dir.toString()))
                .toArray(String[]::new);
        Cli.Result r = Cli.run(withJson);
        assertEquals(0, r.exit(), r.err());
        JsonNode printed = r.json();
        assertEquals(1, printed.get("schema_version").asInt(), printed.toString());
        assertEquals(name.split(" ")[0], printed.get("command").asText());
        // The keys every command's figures share: the same name, the same meaning.
        JsonNode figures = printed.has("trials") ? printed.get("trials").get(0) : printed;
        // A datagram stream counts what it sent, and loss: no requests that ended, no errors.
        boolean datagrams = name.startsWith("udp-stream");
        for (String key : datagrams ? List.of("ok", "bad", "sent") : List.of("requests", "ok", "bad", "errors")) {
            assertTrue(figures.get(key).isIntegralNumber(), key + " in " + figures);
        }
        assertTrue(figures.get("ok").asLong() + figures.get("bad").asLong()
                <= figures.get(datagrams ? "sent" : "requests").asLong(), figures.toString());
        assertEquals(printed, Cli.summaryAsPrinted(dir), "summary.json is what --json printed, with run");
    }

    @Test
    void rpcsOldKeysStayAsAliasesOfTheOnesEveryCommandUses() {
        Cli.Result r = Cli.run("rpc", "--clients", "2", "--requests", "100", "--json");
        JsonNode s = r.json();
        assertEquals(s.get("received_ok"), s.get("ok"));
        assertEquals(s.get("concurrency"), s.get("connections"));
        assertEquals(s.get("total_time_s"), s.get("duration_s"));
    }

    /** The schema can fail: a summary that lost a shared key, or calls it by another name, is refused. */
    @Test
    void aSummaryWithoutASharedKeyIsRefused() {
        Cli.Result r = Cli.run("rr", "--duration", "300ms", "--json");
        ObjectNode s = (ObjectNode) r.json();
        ObjectNode renamed = s.deepCopy();
        renamed.set("good", renamed.remove("ok"));
        AssertionError e = assertThrows(AssertionError.class, () -> SummarySchema.valid(renamed));
        assertTrue(e.getMessage().contains("ok"), e.getMessage());
        ObjectNode unversioned = s.deepCopy();
        unversioned.put("schema_version", 2);
        assertThrows(AssertionError.class, () -> SummarySchema.valid(unversioned));
    }
}
