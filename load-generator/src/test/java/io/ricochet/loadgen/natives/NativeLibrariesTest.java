package io.ricochet.loadgen.natives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's natives: the build unpacks Netty's native libraries to {@code target/native} (the Dockerfile copies them
 * to {@code /app/native}), and a JVM given them on {@code java.library.path} loads epoll, BoringSSL and QUIC from there
 * with nowhere to extract a copy. Without them it cannot: so an image whose {@code /tmp} is noexec would fall back.
 */
@Timeout(120)
@EnabledOnOs(value = OS.LINUX, architectures = "amd64")
class NativeLibrariesTest {
    private static final Path NATIVE = Path.of("target", "native");
    @TempDir
    static Path dir;

    /** The probe's output, in a JVM whose Netty work directory and temporary directory are {@code workdir}. */
    private static String probe(Path workdir, boolean withLibraryPath) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dio.netty.native.workdir=" + workdir, "-Djava.io.tmpdir=" + workdir,
                "-Dio.netty.tmpdir=" + workdir,
                // Netty says where it loaded each library from (an extracted copy is deleted as the JVM exits).
                "-Dorg.slf4j.simpleLogger.log.io.netty.util.internal.NativeLibraryLoader=debug"));
        if (withLibraryPath) {
            command.add("-Djava.library.path=" + NATIVE.toAbsolutePath());
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), NativeProbe.class.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        return out;
    }

    /** The libraries the probe loaded from a copy Netty extracted to {@code workdir}. */
    private static List<String> extracted(String out, Path workdir) {
        return out.lines().filter(l -> l.contains("Successfully loaded the library " + workdir)).toList();
    }

    @Test
    void theBuildUnpacksEveryNativeLibraryTheImageNeeds() throws Exception {
        try (var files = Files.list(NATIVE)) {
            List<String> names = files.map(f -> f.getFileName().toString()).sorted().toList();
            for (String lib : List.of("libnetty_transport_native_epoll_x86_64.so",
                    "libnetty_transport_native_io_uring42_x86_64.so", "libnetty_tcnative_linux_x86_64.so",
                    "libnetty_quiche42_linux_x86_64.so")) {
                assertTrue(names.contains(lib), lib + " in " + names);
            }
        }
    }

    @Test
    void onTheLibraryPathTheyLoadWithoutAnyCopyExtracted() throws Exception {
        Path workdir = Files.createDirectories(dir.resolve("with"));
        String out = probe(workdir, true);
        assertTrue(out.contains("epoll=true openssl=true quic=true") && out.lines().anyMatch("io=epoll"::equals), out);
        assertTrue(out.contains("Successfully loaded the library netty_transport_native_epoll_x86_64\n"), out);
        assertEquals(List.of(), extracted(out, workdir), "nothing extracted: " + out);
        // The control: without the library path, Netty extracts a copy of each to its work directory (a noexec /tmp
        // in a hardened container, where it then cannot load them).
        Path control = Files.createDirectories(dir.resolve("without"));
        String without = probe(control, false);
        assertTrue(without.contains("epoll=true"), without);
        assertTrue(extracted(without, control).stream().anyMatch(n -> n.contains("epoll")), without);
    }

    /** Where epoll cannot load on Linux, auto falls back, says so, and the transport's label (a run's io) says why. */
    @Test
    void aFallbackFromEpollIsNamedInTheTransportsLabel() throws Exception {
        // A work directory under a regular file: not even root can make it, so no native library can load.
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        String out = probe(file.resolve("workdir"), false);
        assertTrue(out.contains("epoll=false"), out);
        String io = out.lines().filter(l -> l.startsWith("io=")).findFirst().orElse(out);
        assertTrue(io.startsWith("io=nio (auto: epoll unavailable: "), io);
        assertTrue(out.contains("WARN") && out.contains("transport auto: nio (epoll unavailable: "), out);
    }
}
