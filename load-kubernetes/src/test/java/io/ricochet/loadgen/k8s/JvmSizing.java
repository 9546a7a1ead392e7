package io.ricochet.loadgen.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a {@code java} command line lets the JVM take of its container's memory limit, and where it writes. The heap is
 * {@code -Xmx}, or {@code -XX:MaxRAMPercentage} of the limit (25 when not given); direct memory is
 * {@code -XX:MaxDirectMemorySize}, or when not given as much as the heap, which is the JVM's default cap (and Netty's,
 * which reads the same). The two may take at most {@link #MAX_SHARE} of the limit: the rest is metaspace, code, thread
 * stacks, GC structures and native libraries.
 */
public final class JvmSizing {
    /** The share of the memory limit that heap and direct memory may take together. */
    public static final double MAX_SHARE = 0.80;
    private static final String NETTY_WORKDIR = "-Dio.netty.native.workdir=";
    private static final String LIBRARY_PATH = "-Djava.library.path=";
    private static final String TMPDIR = "-Djava.io.tmpdir=";

    private JvmSizing() {
    }

    /**
     * Every way {@code command}, run in a container limited to {@code limit} whose writable paths are {@code writable},
     * falls short: heap and direct memory past {@link #MAX_SHARE} of the limit, Netty's native libraries not loaded
     * from the image's read-only {@link JobFactory#NATIVE_LIBRARIES} (a copy extracted to /tmp cannot load where /tmp
     * is noexec), and the JVM's temporary files anywhere but a writable path. Empty when it fits.
     */
    public static List<String> violations(String name, List<String> command, Quantity limit, Set<String> writable) {
        List<String> found = new ArrayList<>();
        if (command.isEmpty() || !command.get(0).equals("java")) {
            found.add(name + ": not a java command: " + command);
            return found;
        }
        long limitBytes = Quantity.getAmountInBytes(limit).longValueExact();
        long heap = -1;
        long direct = -1;
        double percentage = 25;
        String tmpdir = "/tmp";
        String nettyWorkdir = null;
        String libraryPath = null;
        // The JVM's options come before -jar JAR or the main class; what follows is the application's.
        for (String arg : command.subList(1, command.size())) {
            if (arg.equals("-jar") || !arg.startsWith("-")) {
                break;
            } else if (arg.startsWith("-Xmx")) {
                heap = bytes(arg.substring(4));
            } else if (arg.startsWith("-XX:MaxRAMPercentage=")) {
                percentage = Double.parseDouble(arg.substring("-XX:MaxRAMPercentage=".length()));
            } else if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
                direct = bytes(arg.substring("-XX:MaxDirectMemorySize=".length()));
            } else if (arg.startsWith(TMPDIR)) {
                tmpdir = arg.substring(TMPDIR.length());
            } else if (arg.startsWith(NETTY_WORKDIR)) {
                nettyWorkdir = arg.substring(NETTY_WORKDIR.length());
            } else if (arg.startsWith(LIBRARY_PATH)) {
                libraryPath = arg.substring(LIBRARY_PATH.length());
            }
        }
        if (heap < 0) {
            heap = (long) (limitBytes * percentage / 100);
        }
        if (direct < 0) {
            direct = heap;
        }
        if (heap + direct > limitBytes * MAX_SHARE) {
            found.add(String.format(Locale.ROOT, "%s: heap %d MiB and direct memory %d MiB take %.0f%% of its %s limit "
                    + "(expected: at most %.0f%%)", name, heap >> 20, direct >> 20, 100.0 * (heap + direct) / limitBytes,
                    limit, 100 * MAX_SHARE));
        }
        if (!JobFactory.NATIVE_LIBRARIES.equals(libraryPath)) {
            found.add(name + ": " + (libraryPath == null ? "no " + LIBRARY_PATH : LIBRARY_PATH + libraryPath)
                    + " (expected: " + JobFactory.NATIVE_LIBRARIES + ", the image's read-only native libraries, so that "
                    + "Netty need not extract them to an executable /tmp)");
        }
        if (nettyWorkdir != null && !writable.contains(nettyWorkdir)) {
            found.add(name + ": Netty's native libraries go to " + nettyWorkdir + ", not writable (writable: " + writable
                    + ")");
        }
        if (!writable.contains(tmpdir)) {
            found.add(name + ": java.io.tmpdir " + tmpdir + " is not writable (writable: " + writable + ")");
        }
        return found;
    }

    /** The paths {@code container} may write: where it mounts a volume of {@code pod} read-write. */
    public static Set<String> writablePaths(PodSpec pod, Container container) {
        Set<String> volumes = new HashSet<>();
        (pod.getVolumes() == null ? List.<Volume>of() : pod.getVolumes()).forEach(v -> volumes.add(v.getName()));
        Set<String> paths = new HashSet<>();
        for (VolumeMount mount : container.getVolumeMounts() == null ? List.<VolumeMount>of() : container.getVolumeMounts()) {
            if (volumes.contains(mount.getName()) && !Boolean.TRUE.equals(mount.getReadOnly())) {
                paths.add(mount.getMountPath());
            }
        }
        return paths;
    }

    /** A JVM size: bytes, or with k, m or g. */
    private static long bytes(String size) {
        String s = size.toLowerCase(Locale.ROOT);
        long unit = switch (s.charAt(s.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1;
        };
        return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }
}
