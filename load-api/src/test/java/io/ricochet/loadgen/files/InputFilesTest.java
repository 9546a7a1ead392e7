package io.ricochet.loadgen.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class InputFilesTest {

    @Test
    void readsAFileUpToTheBound(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[] {1, 2, 3});

        assertArrayEquals(new byte[] {1, 2, 3}, InputFiles.read(file, 3));
    }

    @Test
    void refusesAFileOverTheBoundByItsSize(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[1_001]);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InputFiles.read(file, 1_000));

        assertEquals(file + ": over 1,000 bytes (expected: at most 1,000)", e.getMessage());
    }

    @Test
    void refusesADeviceThatNeverEnds() {
        Path endless = Path.of("/dev/zero");
        assumeTrue(Files.exists(endless), "no /dev/zero here");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InputFiles.read(endless, 1_000));

        assertEquals("/dev/zero: not a regular file (a device or a FIFO; expected: a file)", e.getMessage());
    }

    /** Opening a FIFO that no one writes blocks for ever: it is refused before it is opened. */
    @Test
    void refusesAFifoWithoutOpeningIt(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (java.io.IOException e) {
            assumeTrue(false, "no mkfifo here");
            return;
        }
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo failed");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5),
                        () -> InputFiles.read(fifo, 1_000)));

        assertEquals(fifo + ": not a regular file (a device or a FIFO; expected: a file)", e.getMessage());
    }

    @Test
    void refusesADirectoryAndAMissingFile(@TempDir Path dir) {
        assertEquals(dir + ": not a regular file (a directory; expected: a file)",
                assertThrows(IllegalArgumentException.class, () -> InputFiles.read(dir, 1_000)).getMessage());
        Path missing = dir.resolve("missing");
        assertEquals(missing + ": no such file",
                assertThrows(IllegalArgumentException.class, () -> InputFiles.read(missing, 1_000)).getMessage());
    }
}
