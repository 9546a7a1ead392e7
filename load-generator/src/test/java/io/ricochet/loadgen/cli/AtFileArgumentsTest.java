package io.ricochet.loadgen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code @FILE} form the docs show, as they write it ({@code --data @FILE}, not only {@code --data=@FILE}): the
 * value is the flag's, never picocli's argument file spliced into the command line; and a file that is not a regular
 * file, or is over its cap, is refused in one line naming the flag and exits 2, without blocking.
 */
@Timeout(120)
class AtFileArgumentsTest {
    @TempDir
    Path dir;

    /** A payload with spaces, quotes and a newline is sent as its bytes: the echo server's reversal comes back. */
    @Test
    void aPayloadFileIsTheRequestsBytesAsTheyAre() throws Exception {
        Path payload = Files.writeString(dir.resolve("payload.txt"), "a \"quoted\" word\nand 'more'");
        Path expected = Files.writeString(dir.resolve("expected.txt"),
                new StringBuilder("a \"quoted\" word\nand 'more'").reverse().toString());
        Cli.Result r = Cli.run("echo", "--payload", "@" + payload, "--expect", "equals:@" + expected, "--duration",
                "1s", "--warmup", "0s", "--connections", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode s = r.json();
        assertTrue(s.get("ok").asLong() > 0, r.out());
        assertEquals(0, s.get("bad").asLong(), r.out());
    }

    @Test
    void aDataFileOfJsonLinesIsTheRequests() throws Exception {
        Path data = Files.writeString(dir.resolve("d.jsonl"), "{\"client_id\": \"1\"}\n{\"client_id\": \"2\"}\n");
        Cli.Result r = Cli.run(NoCodeRpcTest.args(null, "bench.update", "@" + data, null));
        assertEquals(0, r.exit(), r.err());
        assertEquals(2000, r.json().get("received_ok").asLong(), r.out());
    }

    @Test
    void aDeviceOrAFifoIsRefusedAtOnceNamingTheFlag() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "no mkfifo here");
        for (String[] args : new String[][] {
            {"echo", "--payload", "@/dev/zero"},
            {"echo", "--payload", "@/dev/urandom"},
            {"echo", "--payload", "@" + fifo},
            {"echo", "--expect", "equals:@" + fifo},
            {"echo", "--payload", "@" + dir},
        }) {
            Cli.Result r = Cli.run(args);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains(args[1]) && r.err().contains("not a regular file"), r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
        Cli.Result r = Cli.run(NoCodeRpcTest.args(null, "bench.update", "@" + fifo, null));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--data") && r.err().contains("not a regular file"), r.err());
        r = Cli.run("rpc", "--proto", fifo.toString(), "--method", "a.b", "--request-type", "a.T", "--response-type",
                "a.T", "--data", "{}");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--proto") && r.err().contains("not a regular file"), r.err());
    }

    @Test
    void aPayloadFileOverItsCapIsRefused() throws Exception {
        Path huge = dir.resolve("huge.bin");
        try (RandomAccessFile sparse = new RandomAccessFile(huge.toFile(), "rw")) {
            sparse.setLength((16 << 20) + 1L);
        }
        Cli.Result r = Cli.run("echo", "--payload", "@" + huge);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--payload") && r.err().contains("over 16,777,216 bytes"), r.err());
    }

    /** A killed run's directory may hold anything: a file too large for memory is refused by name, exit 2. */
    @Test
    void aReportDirectoryWithAHugeFileIsRefusedByName() throws Exception {
        Files.writeString(dir.resolve("summary.json"), "{\"command\":\"echo\"}", StandardCharsets.UTF_8);
        Path intervals = dir.resolve("intervals.csv");
        try (RandomAccessFile sparse = new RandomAccessFile(intervals.toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }
        Cli.Result r = Cli.run("report", dir.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(intervals.toString()) && r.err().contains("over 268,435,456 bytes"), r.err());
        // A killed run's directory has no summary.json: the summary rebuilt from its files refuses it in the same words.
        Files.delete(dir.resolve("summary.json"));
        r = Cli.run("report", dir.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("load-generator: report: " + intervals + ": over 268,435,456 bytes"), r.err());
        // A FIFO in its place is not a run's file: passed over, never opened (no writer would block the read).
        Files.writeString(dir.resolve("summary.json"), "{\"command\":\"echo\"}", StandardCharsets.UTF_8);
        Files.delete(intervals);
        assumeTrue(new ProcessBuilder("mkfifo", intervals.toString()).start().waitFor() == 0, "no mkfifo here");
        r = Cli.run("report", dir.toString());
        assertEquals(0, r.exit(), r.err());
    }
}
