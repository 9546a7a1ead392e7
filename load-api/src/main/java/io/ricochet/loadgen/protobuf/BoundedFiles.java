package io.ricochet.loadgen.protobuf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/** Reads the files a user names, with a bound on their size and errors of one line that name the file. */
final class BoundedFiles {
    private BoundedFiles() {
    }

    /**
     * The bytes of {@code file}; an {@link IllegalArgumentException} if it is missing, cannot be read, or holds more
     * than {@code maxBytes}: {@code /tmp/a.protoset: no such file}.
     */
    static byte[] read(Path file, int maxBytes) {
        // A regular file's size refuses a big one before any byte is read; reading at most one byte past the bound
        // refuses the rest (a pipe, a file that grows) without holding more than that.
        try (InputStream in = Files.newInputStream(file)) {
            if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            byte[] bytes = in.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw tooLarge(file, maxBytes);
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            String why = e.getMessage() == null || e.getMessage().equals(file.toString())
                    ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalArgumentException(file + ": cannot be read (" + why + ")");
        }
    }

    private static IllegalArgumentException tooLarge(Path file, int maxBytes) {
        return new IllegalArgumentException(String.format(Locale.ROOT, "%s: over %,d bytes (expected: at most %,d)",
                file, maxBytes, maxBytes));
    }
}
