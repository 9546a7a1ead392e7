package io.ricochet.loadgen.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;

/**
 * What and where a run ran: when it started (UTC), which Ricochet (version and git commit, from the build), which
 * JVM with which flags, on which host (name, cores, memory) and kernel, and with which client I/O transport. Written
 * as {@code run} into {@code summary.json} and {@code config.json}, shown in the report's header, and compared by
 * {@code compare}, so that two runs' figures are not set side by side without saying how their setups differ.
 *
 * @param startedUtc the run's start, ISO-8601 in UTC
 * @param io         the client's I/O transport, or null where the run has none of its own
 * @param workers    a controller's run: where each worker ran, as it said on joining; null (left out) otherwise
 */
public record RunMetadata(String startedUtc, Ricochet ricochet, Jvm jvm, Host host, String kernel, String io,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Worker> workers) {
    /** The build's properties, written by the git-commit-id plugin. */
    static final String BUILD_PROPERTIES = "/io/ricochet/loadgen/ricochet-git.properties";

    /** @param commit the git commit it was built from, abbreviated; {@code unknown} when built outside git */
    public record Ricochet(String version, String commit) {
    }

    /** @param flags the JVM's input arguments, as {@code -Xmx2g} */
    public record Jvm(String vendor, String version, List<String> flags) {
    }

    /** @param memoryBytes the machine's physical memory as the JVM sees it (a container's limit, inside one) */
    public record Host(String name, int cores, long memoryBytes) {
    }

    /**
     * One worker of a controller's run, as it said on joining: its host (cores 0 and memory -1 where a worker from
     * before these fields did not say) and its JVM (null where it did not say); both null (left out) for a worker that
     * never joined.
     */
    public record Worker(int worker, @JsonInclude(JsonInclude.Include.NON_NULL) Host host,
            @JsonInclude(JsonInclude.Include.NON_NULL) Jvm jvm) {
    }

    /** The same run with its workers. */
    public RunMetadata withWorkers(List<Worker> workers) {
        return new RunMetadata(startedUtc, ricochet, jvm, host, kernel, io, List.copyOf(workers));
    }

    /** The JVM this process runs in. */
    public static Jvm thisJvm() {
        return new Jvm(System.getProperty("java.vm.vendor"), Runtime.version().toString(),
                List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments()));
    }

    /** The host this process runs on. */
    public static Host thisHost() {
        return new Host(hostName(), Runtime.getRuntime().availableProcessors(), memoryBytes());
    }

    /** This process's, for a run that started at {@code startMillis} with client I/O {@code io}. */
    public static RunMetadata current(long startMillis, String io) {
        return new RunMetadata(Instant.ofEpochMilli(startMillis).toString(), thisBuild(), thisJvm(), thisHost(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"), io, null);
    }

    private static Ricochet thisBuild() {
        Properties build = new Properties();
        try (InputStream in = RunMetadata.class.getResourceAsStream(BUILD_PROPERTIES)) {
            if (in != null) {
                build.load(in);
            }
        } catch (IOException e) {
            // An unreadable resource in our own jar: said as unknown, as a build outside git is.
        }
        return new Ricochet(build.getProperty("git.build.version", "unknown"),
                build.getProperty("git.commit.id.abbrev", "unknown"));
    }

    /** The host's name without a DNS lookup, which can hang where the resolver is broken. */
    private static String hostName() {
        String name = System.getenv("HOSTNAME");
        if (name != null && !name.isBlank()) {
            return name;
        }
        try {
            return Files.readString(Path.of("/etc/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException unknown) {
                return "unknown";
            }
        }
    }

    private static long memoryBytes() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getTotalMemorySize() : -1;
    }
}
