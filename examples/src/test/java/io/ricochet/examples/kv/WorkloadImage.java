package io.ricochet.examples.kv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The files of an image built {@code FROM} Ricochet's with this module's jar added, as docs/kubernetes.md says to build
 * one: {@code load-generator.jar}, and the workload jar in the {@code workloads/} directory beside it. The build's own
 * jars, at the paths failsafe passes as system properties.
 */
public final class WorkloadImage {
    /** The generator's jar, as the build made it. */
    public static final Path LOAD_GENERATOR = Path.of(System.getProperty("loadgen.jar", "../load-generator/target/load-generator.jar"));
    /** This module's jar: the workload jar a user adds. */
    public static final Path WORKLOADS = Path.of(System.getProperty("workload.jar", "target/ricochet-examples.jar"));
    /** kv.proto's descriptor set, as the build wrote it. */
    public static final Path PROTOSET = Path.of(System.getProperty("kv.protoset",
            "target/generated-resources/protobuf/descriptor-sets/kv.protoset"));

    private WorkloadImage() {
    }

    /** Lays out the image's files under {@code dir}; without {@code withWorkloads}, the plain Ricochet image's. */
    public static Path layOut(Path dir, boolean withWorkloads) throws IOException {
        Files.createDirectories(dir);
        Files.copy(LOAD_GENERATOR, dir.resolve("load-generator.jar"), StandardCopyOption.REPLACE_EXISTING);
        if (withWorkloads) {
            Path workloads = Files.createDirectories(dir.resolve("workloads"));
            Files.copy(WORKLOADS, workloads.resolve("kv-workloads.jar"), StandardCopyOption.REPLACE_EXISTING);
        }
        return dir;
    }

    /** The image's entrypoint, as the Dockerfile's: {@code java -jar load-generator.jar}. */
    public static List<String> entrypoint(Path image) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                image.resolve("load-generator.jar").toString());
    }

    /** What a process printed, and how it ended. */
    public record Run(int exit, String out, String err) {
    }

    /** Runs the image's entrypoint with {@code args}, for at most {@code seconds}. */
    public static Run run(Path image, Path logs, long seconds, String... args) throws Exception {
        List<String> command = new ArrayList<>(entrypoint(image));
        command.addAll(List.of(args));
        Files.createDirectories(logs);
        Path out = Files.createTempFile(logs, "out", ".txt");
        Path err = Files.createTempFile(logs, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new AssertionError("still running after " + seconds + " s: " + command);
            }
        } finally {
            p.destroyForcibly();
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
