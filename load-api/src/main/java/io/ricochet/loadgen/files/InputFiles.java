package io.ricochet.loadgen.files;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * The one reader of the files a user names ({@code --payload @FILE}, {@code --data @FILE}, {@code --proto}, a
 * scenario file, the files of {@code report DIR}): bounded, and refusing in one line that names the file.
 *
 * <p>Only a regular file is read. A FIFO, a device ({@code /dev/zero}, {@code /dev/urandom}) or a directory is refused
 * before it is opened, because opening a FIFO with no writer blocks for ever and a device never ends. A regular file
 * over {@code maxBytes} is refused by its size before a byte is read, and the read itself stops one byte past the bound,
 * for a file that grows meanwhile.
 *
 * <pre>{@code
 * byte[] payload = InputFiles.read(Path.of("request.bin"), 16 << 20);
 * // IllegalArgumentException: "/dev/zero: not a regular file (a device or a FIFO; expected: a file)"
 * }</pre>
 */
public final class InputFiles {
    private InputFiles() {
    }

    /** {@code path} as a path, or an error naming it. */
    public static Path path(String path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("no file named (expected: a path)");
        }
        try {
            return Path.of(path);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(path + ": not a path (" + e.getReason() + ")", e);
        }
    }

    /**
     * The bytes of {@code file}; an {@link InputFileException} of one line naming it if it is missing, not a regular
     * file, unreadable or over {@code maxBytes}.
     */
    public static byte[] read(Path file, int maxBytes) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (!attributes.isRegularFile()) {
                throw new InputFileException(file, "not a regular file ("
                        + (attributes.isDirectory() ? "a directory" : "a device or a FIFO") + "; expected: a file)", null);
            }
            if (attributes.size() > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(maxBytes + 1);
            }
            if (bytes.length > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new InputFileException(file, "no such file", e);
        } catch (AccessDeniedException e) {
            throw new InputFileException(file, "permission denied", e);
        } catch (IOException e) {
            String why = e.getMessage() == null || e.getMessage().equals(file.toString())
                    ? e.getClass().getSimpleName() : e.getMessage();
            throw new InputFileException(file, "cannot be read (" + why + ")", e);
        }
    }

    private static InputFileException tooLarge(Path file, int maxBytes) {
        return new InputFileException(file, String.format(Locale.ROOT, "over %,d bytes (expected: at most %,d)",
                maxBytes, maxBytes), null);
    }
}
