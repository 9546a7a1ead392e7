package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.commandline.ExitCodes;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A bad value is one line naming the flag as typed, with durations as they are written; nothing runs. */
@Timeout(60)
class UsageMessagesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "echo --size 70000|--size 70000 (expected: 1..65535)",
        "echo --size 5..70000|--size 70000 (expected: 5..65535)",
        "echo --size 64k|--size 65536 (expected: 1..65535)",
        "echo --length-field 3|--length-field 3 (expected: 2 or 4)",
        "echo --duration 0s|--duration 0s (expected: > 0)",
        "echo --timeout 0s|--timeout 0s (expected: > 0)",
        "echo --interval 0ms|--interval 0s (expected: > 0)",
        "echo --connections 0|--connections 0 (expected: > 0)",
        "echo --pipeline 0|--pipeline 0 (expected: 1..65536)",
        "echo --io-threads -1|--io-threads -1 (expected: 0..1024)",
        "echo --rate 5 --per-connection-rate 1|--per-connection-rate 1.0 (expected: 0 with a total rate)",
        "crr --concurrency 0|--concurrency 0 (expected: > 0)",
        "massive --timeout 0s|--timeout 0s (expected: > 0)",
        "register --pairs 0|--pairs 0 (expected: > 0)",
        "register --cycles 0|--cycles 0 (expected: > 0)",
        "register --timeout 0s|--timeout 0s (expected: > 0)",
        "rpc --clients 0|--clients 0 (expected: > 0)",
        "rpc --requests 0|--requests 0 (expected: > 0)",
        "rpc --in-flight 0|--in-flight 0 (expected: > 0)",
        "rpc --size 2MB|--size 2097152 (expected: 0..1048576)",
        "rpc --warmup -1|--warmup -1 (expected: >= 0)",
        "rpc --timeout 0s|--timeout 0s (expected: > 0)",
        "udp-stream --size 70000|--size 70000 (expected: 1..65505)",
        "udp-stream --sockets 0|--sockets 0 (expected: > 0)",
        "udp-stream --search --max-trials 1|--max-trials 1 (expected: 2..100)",
        "echo --transport quic --tls|--tls with the quic transport (expected: no --tls; QUIC always runs TLS 1.3, trusting --tls-ca or --insecure)",
        "crr --transport udp|transport: udp (crr connects: tcp or quic)",
        "crr --early-data|--early-data without --transport quic",
        "udp-stream --search --precision 0.9|--precision 0.9 (expected: 0.001..0.5)",
        "sweep --max-size 0|--max-size 0 (expected: 1..1073741824)",
        "sweep --requests-per-step 0|--requests-per-step 0 (expected: > 0)",
        "ramp --start-rate 0|--start-rate 0.0 (expected: > 0)",
        "ramp --factor 1|--factor 1.0 (expected: > 1)",
        "ramp --duration 0s|--duration 0s (expected: > 0)",
        "controller --workers 2 echo --size 70000|--size 70000 (expected: 1..65535)",
        "rpc --target 127.0.0.1:1-2|--target 127.0.0.1:1-2 (expected: one HOST:PORT; rpc loads a single server)",
        "udp-stream --target h:1,h:5|--target h:1,h:5 (expected: one HOST:PORT; udp-stream loads a single server)",
        "controller --workers 2 register --target h:1-2|--target h:1-2 (expected: one HOST:PORT; register loads a single server)",
        "controller --workers 3 massive --source-addresses 127.0.0.2-127.0.0.3|source-addresses: 2 address(es) over 3 workers would have workers share a source address (expected: at least one per worker)",
        "echo --stages 1k:10s --rate 5k|--stages with --rate (expected: one of them; the stages set the rate)",
        "echo --stages 1k:10s --duration 1m|--duration 1m (expected: none with stages, or theirs, 10s)",
        "echo --stages 1k:10s --warmup 2s|--stages with --warmup (expected: one of them; the first stage is the ramp a warmup would be; its intervals are measured)",
        "massive --stages 1k:10s|--stages of rates with command massive (expected: echo)",
        "controller --workers 2 echo --stages 1conns:10s|stages: a peak of 1 connections over 2 workers leaves worker 1 none (expected: at least one each)",
        // A named workload's settings without its name were ignored: the default check ran against the user's service.
        "echo --workload-param deposit=5|--workload-param without --workload (expected: --workload NAME, the workload they are for; 'list' names the ones found)",
        "echo --workload-jar my.jar|--workload-jar without --workload (expected: --workload NAME, the workload they are for; 'list' names the ones found)",
        "rpc --workload-param deposit=5|--workload-param without --workload (expected: --workload NAME, the workload they are for; 'list' names the ones found)",
        "echo --workload bank --size 100|--size with --workload (expected: one of them; the workload makes its requests, their size included)",
        // picocli said "Value for option option '--workload-param' (KEY=VALUE) should be in KEY=VALUE format but was deposit".
        "echo --workload bank --workload-param deposit|--workload-param deposit (expected: KEY=VALUE)",
    })
    void aValueOutOfRangeIsNamedByItsFlag(String args, String message) {
        Cli.Result r = Cli.run(args.split(" "));
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        assertEquals("load-generator: invalid option value: " + message + " (see --help)", r.err().strip());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "echo --connections 1.2345k|'--connections': count: 1.2345k (expected: a whole number",
        "echo --connections 3G|'--connections': count: 3G (expected: at most 2147483647)",
        "echo --rate 10m|'--rate': rate: 10m (expected: e.g. 5000, 10k, 1.5k/s, 0.04/s, 10/m)",
        "echo --size 1.3k|'--size': size: 1.3k (expected: bytes N or MIN..MAX",
        "echo --duration 1s1m|'--duration': duration: 1s1m (expected: e.g. 500ms, 2s, 1m30s, 1h or PT2S)",
        "sweep --max-size 1x|'--max-size': size: 1x (expected: bytes, e.g. 64, 64B, 4k, 4KiB, 1MB, 1.5M)",
        "sweep --counts 0..1k|'--counts': counts: 0..1k (expected: N or MIN..MAX",
        "rpc --requests 10x|'--requests': count: 10x (expected: a number with an optional k, M or G",
        "udp-stream --max-loss 5|'--max-loss': fraction: 5 (expected: 0..1 or 0%..100%, e.g. 0.1% or 0.001)",
        "echo --stages 20k:0s|'--stages': stages: 20k:0s (expected: TARGET:DURATION[:step],...",
        "echo --stages 20k|'--stages': stages: 20k (expected: TARGET:DURATION[:step],...",
        "echo --stages 20k:-1s|'--stages': stages: 20k:-1s (expected: TARGET:DURATION[:step],...",
        "echo --stages 20k:10s,5conns:1s|'--stages': stages: 20k:10s,5conns:1s (expected: all rates or all connections)",
    })
    void aMalformedValueNamesTheFlagAndTheForms(String args, String part) {
        Cli.Result r = Cli.run(args.split(" "));
        assertEquals(ExitCodes.USAGE, r.exit(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("load-generator: Invalid value for option " + part), lines[0]);
    }
}
