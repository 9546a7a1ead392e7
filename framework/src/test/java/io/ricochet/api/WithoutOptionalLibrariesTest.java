package io.ricochet.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ricochet.internal.OptionalLibrary;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * noise-java and QUIC's codec are optional dependencies of the framework: a JVM without them (this module's class
 * path less those jars) serves plain TCP, and each way of turning on Noise or QUIC fails with one line saying what to
 * add, never a {@link NoClassDefFoundError}.
 */
@Timeout(60)
class WithoutOptionalLibrariesTest {
    /** The jars left out, by file-name prefix. */
    private static final List<String> LEFT_OUT = List.of("noise-java-", "netty-codec-classes-quic-",
            "netty-codec-native-quic-");

    @TempDir
    Path dir;

    @Test
    void plainTcpServesAndNoiseAndQuicSayWhatIsMissing() throws Exception {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        List<String> kept = Arrays.stream(entries)
                .filter(e -> LEFT_OUT.stream().noneMatch(Path.of(e).getFileName().toString()::startsWith))
                .toList();
        assertEquals(entries.length - LEFT_OUT.size(), kept.size(),
                "each left-out jar was on the test class path once: " + String.join("\n", entries));
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                String.join(File.pathSeparator, kept), WithoutOptionalLibrariesMain.class.getName()));
        Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean exited = child.waitFor(30, TimeUnit.SECONDS);
        if (!exited) {
            child.destroyForcibly().waitFor();
        }
        String stdout = Files.readString(out);
        String report = "stdout:\n" + stdout + "\nstderr:\n" + Files.readString(err);
        assertTrue(exited, "the child exits: " + report);
        assertEquals(0, child.exitValue(), report);

        String noise = "java.lang.IllegalStateException: " + OptionalLibrary.NOISE.missingMessage();
        String quic = "java.lang.IllegalStateException: " + OptionalLibrary.QUIC.missingMessage();
        assertEquals(List.of(
                "noise-java present: false",
                "quic present: false",
                "tcp echo: cba",
                "Listener.noise: " + noise,
                "ServerBuilder.noise: " + noise,
                "FrameClient.Builder.noise: " + noise,
                "RpcClientConfig.Builder.noise: " + noise,
                "ServerTlsConfig.buildQuic: " + quic,
                "ClientTlsConfig.buildQuic: " + quic,
                "Listener.quic: " + quic,
                "ServerBuilder.quic: " + quic,
                "FrameClient.Builder.quic: " + quic), stdout.lines().collect(Collectors.toList()), report);
        assertNotEquals(OptionalLibrary.NOISE.missingMessage(), OptionalLibrary.QUIC.missingMessage());
    }

    @Test
    void bothLibrariesAreHereOnTheTestClassPath() {
        assertTrue(OptionalLibrary.NOISE.isPresent());
        assertTrue(OptionalLibrary.QUIC.isPresent());
        OptionalLibrary.NOISE.require();
        OptionalLibrary.QUIC.require();
    }
}
