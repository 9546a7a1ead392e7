package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every input a workload can be given wrong is one line on stderr naming its flag, and exit status 2, before any
 * connection is made: the target here is a port nobody listens on, so a connect would say so instead.
 */
class BadWorkloadInputsTest {
    @TempDir
    static Path dir;
    private static String nowhere;
    private static Path text;

    @BeforeAll
    static void setUp() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            nowhere = "127.0.0.1:" + s.getLocalPort();
        }
        text = Files.writeString(dir.resolve("notes.txt"), "not a jar");
    }

    private static String proto() {
        return NoCodeRpcTest.BENCH.toString();
    }

    static Stream<Arguments> inputs() {
        String type = "ricochet.bench.BenchMessage";
        return Stream.of(
                arguments(List.of("echo", "--workload-jar", "/no/such.jar", "--workload", "kv"),
                        "--workload-jar /no/such.jar: no such file"),
                arguments(List.of("echo", "--workload-jar", "@TEXT", "--workload", "kv"), "--workload-jar @TEXT: not a jar"),
                arguments(List.of("echo", "--workload", "kv"), "--workload kv: no workload jar provides it"),
                arguments(List.of("rpc", "--workload", "kv"), "--workload kv: no workload jar provides it"),
                arguments(List.of("rpc", "--proto", "@TEXT", "--method", "m", "--request-type", type, "--response-type",
                        type), "--proto: @TEXT: does not parse as a FileDescriptorSet"),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", "ricochet.bench.Nope",
                        "--response-type", type), "--request-type ricochet.bench.Nope: no message type ricochet.bench.Nope"),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", type, "--response-type",
                        "Other"), "--response-type Other: no message type Other"),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", type, "--response-type",
                        type, "--data", "{\"client_idd\": 1}"), "--data: Cannot find field: client_idd in message " + type),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", type, "--response-type",
                        type, "--data", "{\"sequence\": \"x\"}"), "--data: field sequence: "),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", type, "--response-type",
                        type, "--expect", "{not json"), "--expect: not JSON"),
                arguments(List.of("rpc", "--proto", "@PROTO", "--method", "m", "--request-type", type, "--response-type",
                        type, "--expect-status", "MISSING"), "--expect-status: unknown status MISSING"),
                arguments(List.of("echo", "--expect", "regex:("), "--expect: regex:(: Unclosed group"),
                arguments(List.of("crr", "--expect", "sorta"), "--expect: mode: sorta (expected: reversed, echo"),
                arguments(List.of("echo", "--payload", "{{nope}}"), "--payload: {{nope}} names no placeholder"),
                arguments(List.of("echo", "--payload", "x", "--size", "8"), "--size with --payload"),
                arguments(List.of("rpc", "--method", "m"), "--method without --proto"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("inputs")
    void isOneLineNamingTheFlagAndExitTwo(List<String> given, String message) {
        List<String> args = new ArrayList<>();
        for (String a : given) {
            args.add(a.replace("@TEXT", text.toString()).replace("@PROTO", proto()));
        }
        args.addAll(List.of("--target", nowhere, "--duration", "1s"));
        if (args.get(0).equals("rpc")) {
            args.remove("--duration");
            args.remove("1s");
        }
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertEquals(2, r.exit(), r.err() + r.out());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), err);
        String expected = message.replace("@TEXT", text.toString());
        assertTrue(err.startsWith("load-generator: invalid option value: " + expected), err + "\nexpected: " + expected);
    }
}
