package io.ricochet.loadgen.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedFilesTest {

    @Test
    void readsAFileUpToTheBound(@TempDir Path dir) {
        Path file = Protosets.write(dir, "f", new byte[]{1, 2, 3});

        assertArrayEquals(new byte[]{1, 2, 3}, BoundedFiles.read(file, 3));
    }

    @Test
    void refusesAFileOverTheBound(@TempDir Path dir) {
        Path file = Protosets.write(dir, "f", new byte[1_001]);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BoundedFiles.read(file, 1_000));

        assertEquals(file + ": over 1,000 bytes (expected: at most 1,000)", e.getMessage());
    }

    @Test
    void refusesAStreamThatDoesNotEndWithinTheBound() {
        Path endless = Path.of("/dev/zero");
        assumeTrue(Files.isReadable(endless), "no /dev/zero here");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BoundedFiles.read(endless, 1_000));

        assertEquals("/dev/zero: over 1,000 bytes (expected: at most 1,000)", e.getMessage());
    }
}
