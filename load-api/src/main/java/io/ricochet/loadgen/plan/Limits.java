package io.ricochet.loadgen.plan;

import io.ricochet.config.OpenFileLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What one machine allows, read where the run is planned: the open-file limit a process gets, the ephemeral port range
 * and physical memory; and the memory of a Kubernetes node.
 *
 * @param openFiles      a process's open-file limit; -1 if unknown
 * @param ephemeralPorts ports in {@code net.ipv4.ip_local_port_range}
 * @param memoryBytes    physical memory of this machine; -1 if unknown
 * @param nodeMemoryBytes memory of one Kubernetes node, for the pods-per-node sum
 */
public record Limits(long openFiles, int ephemeralPorts, long memoryBytes, long nodeMemoryBytes) {
    /** Linux's default range, 32768..60999, when the real one cannot be read. */
    static final int DEFAULT_EPHEMERAL_PORTS = 28_232;

    public static Limits ofThisMachine(long nodeMemoryBytes) {
        return new Limits(OpenFileLimit.current(), ephemeralPorts(Path.of("/proc/sys/net/ipv4/ip_local_port_range")),
                memoryBytes(Path.of("/proc/meminfo")), nodeMemoryBytes);
    }

    /** Connections one process may hold here: the open-file limit less the framework's reserve. */
    public long connectionsPerProcess() {
        return OpenFileLimit.connectionCap(openFiles);
    }

    static int ephemeralPorts(Path range) {
        try {
            String[] lowHigh = Files.readString(range).trim().split("\\s+");
            return Integer.parseInt(lowHigh[1]) - Integer.parseInt(lowHigh[0]) + 1;
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_PORTS;
        }
    }

    static long memoryBytes(Path meminfo) {
        try {
            List<String> lines = Files.readAllLines(meminfo);
            for (String line : lines) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Unknown: memory is not checked.
        }
        return -1;
    }
}
